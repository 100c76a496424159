/**
 * A chain's run (src/mechanisms/chain.ts): the identity step on the input, then the attribute step
 * on the identity step's release, read as a table of its own, so the attribute method's groups are
 * the released groups and its records the released records. The outcome is the attribute step's
 * release with both steps' report sections, each step's words, and the composed statement.
 */
import type { ChainStepReport } from '../../common/report/report-model.js';
import { makeColumn, type Table } from '../../common/table/table.js';
import type { ImportedTable } from '../../io/input/import-types.js';
import { codeBlocks, type ReleaseTable } from '../../io/output/release-table.js';
import { chainStatement, type StepSentences } from '../../mechanisms/chain-statement.js';
import type { ChainSteps } from '../../mechanisms/chain.js';
import type { Job } from '../../mechanisms/definitions.js';
import { nodeMechanismOf } from '../../mechanisms/node-registry.js';
import type { MethodContext } from '../method-kit/method-context.js';
import type { NodeMechanism } from '../method-kit/node-mechanism.js';
import type { MethodOutcome } from '../method-kit/outcome.js';
import { checkedRelease } from '../release-checks.js';
import { JobError } from '../../common/job/job-error.js';

/**
 * One step. A step's refusal names its key as the step's method does ("method.models"); in the
 * chain's job that key is the step's ("method[0].models"), so the refusal is re-keyed.
 */
function runStep(job: Job, index: 0 | 1, imported: ImportedTable, ctx: MethodContext): MethodOutcome {
  const mechanism = nodeMechanismOf(job.method.type) as NodeMechanism<Job['method']>;
  try {
    return checkedRelease(job, imported.table, mechanism.run(job, imported, ctx));
  } catch (error) {
    if (error instanceof JobError && error.key !== undefined && /^method(\.|$)/.test(error.key)) throw stepError(error, error.key, index);
    throw error;
  }
}

function stepError(error: JobError, stepKey: string, index: 0 | 1): JobError {
  const key = `method[${index}]${stepKey.slice('method'.length)}`;
  const message = error.message.startsWith(`${stepKey}: `) ? error.message.slice(stepKey.length + 2) : error.message;
  return new JobError(message, key, error.issues.map((issue) => (issue.startsWith(`${stepKey}:`) ? `${key}${issue.slice(stepKey.length)}` : issue)));
}

/** A released table as a table a method reads: its rows' values, "" missing as in any input. */
export function tableOfRelease(release: ReleaseTable): Table {
  const dictionaries = release.columns.map(() => [''] as string[]);
  const index = release.columns.map(() => new Map<string, number>([['', 0]]));
  const codes = release.columns.map(() => new Uint32Array(release.rowCount));
  // Each column's released codes mapped once to the new dictionary's codes.
  const remap = release.columns.map((c, j) =>
    Int32Array.from(c.dictionary, (value) => {
      let code = index[j]!.get(value);
      if (code === undefined) {
        code = dictionaries[j]!.length;
        dictionaries[j]!.push(value);
        index[j]!.set(value, code);
      }
      return code;
    }),
  );
  for (const block of codeBlocks(release)) {
    for (let j = 0; j < release.columns.length; j++) {
      const from = block.codes[j]!;
      const to = codes[j]!;
      const map = remap[j]!;
      for (let i = 0; i < block.count; i++) to[block.start + i] = map[from[i]!]!;
    }
  }
  return { rowCount: release.rowCount, columns: release.columns.map((c, j) => makeColumn(c.name, codes[j]!, dictionaries[j]!)) };
}

/** A step's words as its own statement wrote them: internal (the run's) or published. */
function sentences(outcome: MethodOutcome, published: boolean): StepSentences {
  const { name, statement, formula, source } = outcome.guarantee;
  return {
    title: outcome.method.title,
    guarantee: { name, statement, formula, source },
    summary: published ? outcome.externalSummary : outcome.summary,
    warnings: published ? (outcome.externalWarnings ?? []) : outcome.warnings,
  };
}

function stepReport(outcome: MethodOutcome, published: boolean): ChainStepReport {
  const { type, title, parameters, derived, levels } = outcome.method;
  const words = sentences(outcome, published);
  return {
    type, title, parameters, derived, ...(levels ? { levels } : {}),
    guarantee: { ...words.guarantee, ...(outcome.guarantee.holds !== undefined ? { holds: outcome.guarantee.holds } : {}) },
    summary: words.summary,
    warnings: words.warnings,
  };
}

/** Both steps' outcomes as the chain's: the attribute step's release and sections, the identity step's sections, the composed words. */
function composed(identity: MethodOutcome, attribute: MethodOutcome): MethodOutcome {
  const internal = chainStatement(sentences(identity, false), sentences(attribute, false));
  const published = chainStatement(sentences(identity, true), sentences(attribute, true));
  const holds = identity.guarantee.holds !== undefined && attribute.guarantee.holds !== undefined ? identity.guarantee.holds && attribute.guarantee.holds : undefined;
  const { holds: _holds, ...attributeGuarantee } = attribute.guarantee;
  const { pending } = attribute;
  const outcome: MethodOutcome = {
    ...attribute,
    // The input's columns and roles, identifiers included: the report describes the input the chain read.
    plan: identity.plan,
    guarantee: { ...attributeGuarantee, ...published.guarantee, ...(holds !== undefined ? { holds } : {}) },
    // The classes of the released quasi-identifiers are the identity step's: the attribute step keeps them as released.
    risk: { ...attribute.risk, ...(identity.risk.classes !== undefined ? { classes: identity.risk.classes, minClassSize: identity.risk.minClassSize! } : {}) },
    ...(identity.anonymity ? { anonymity: identity.anonymity } : {}),
    ...(identity.suppressed !== undefined ? { suppressed: identity.suppressed } : {}),
    summary: internal.summary,
    externalSummary: published.summary,
    warnings: internal.warnings,
    externalWarnings: published.warnings,
    chain: { steps: [stepReport(identity, false), stepReport(attribute, false)] },
    publishedChain: { steps: [stepReport(identity, true), stepReport(attribute, true)] },
  };
  const { pending: _pending, ...settled } = outcome;
  return pending ? { ...settled, pending: { settle: () => composed(identity, pending.settle()), abandon: () => pending.abandon() } } : settled;
}

/**
 * Runs both steps. The identity step measures no utility of its own (the release is the second
 * step's) and settles nothing later; the attribute step runs as any method does.
 */
export function runChain(steps: ChainSteps, imported: ImportedTable, ctx: MethodContext): MethodOutcome {
  return runChainSteps(steps, imported, ctx).outcome;
}

/** Both steps' own outcomes beside the chain's: compare reads the identity step's release and attack (src/jobs/chain/compare-chain.ts). */
export interface ChainOutcomes {
  readonly identity: MethodOutcome;
  readonly attribute: MethodOutcome;
  readonly outcome: MethodOutcome;
}

export function runChainSteps(steps: ChainSteps, imported: ImportedTable, ctx: MethodContext): ChainOutcomes {
  const { settleLater: _settleLater, ...plain } = ctx;
  const identity = runStep(steps[0], 0, imported, { ...plain, measureUtility: false });
  const first = identity.releases[0];
  if (!first || identity.releases.length !== 1) throw new Error(`${steps[0].method.type} released ${identity.releases.length} tables; an identity step releases one`);
  // The attribute step reads the identity step's release as its input; what it reports of its input
  // (renamed columns, rejected rows) is the chain's input, so those facts stay the original's.
  // Its first lines are the original file's, not the released table's.
  const { firstLines: _firstLines, ...read } = imported;
  const released: ImportedTable = { ...read, table: tableOfRelease(first.table) };
  const attribute = runStep(steps[1], 1, released, ctx);
  return { identity, attribute, outcome: composed(identity, attribute) };
}

/**
 * A chain's assessment: the attribute step's figures are of the identity step's release, so there is
 * none without that release. Both steps are run in memory (nothing is written), without the utility
 * pools: the outcome holds the identity step's figures of its release, the attribute step's on it,
 * and the final release, which the caller reviews as a run would. The identity step chooses its
 * recoding (or groups) as a run would; the attribute step's random draws are this preview's own.
 */
export function assessChain(steps: ChainSteps, imported: ImportedTable, ctx: MethodContext): MethodOutcome {
  const { settleLater: _settleLater, ...plain } = ctx;
  return runChain(steps, imported, { ...plain, mode: 'run', measureUtility: false });
}
