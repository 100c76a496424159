/**
 * verify of a chain's release (src/mechanisms/chain.ts): each step's published sentences written
 * again by its own statement.ts and the composed statement from them (chain-statement.ts), then each
 * step's guarantee re-checked from the released files: the attribute step's on its tables, the
 * identity step's on the quasi-identifiers as released (the attribute step's first table).
 */
import type { Report } from '../../common/report/report-model.js';
import type { HierarchySpec } from '../../common/recoding/hierarchy-spec.js';
import { chainStatement } from '../../mechanisms/chain-statement.js';
import type { ChainSteps } from '../../mechanisms/chain.js';
import type { Job } from '../../mechanisms/definitions.js';
import { nodeMechanismOf } from '../../mechanisms/node-registry.js';
import { parseReport } from '../../mechanisms/report-schema.js';
import type { CheckList } from '../method-kit/checks.js';
import type { NodeMechanism, ReleasedTableName } from '../method-kit/node-mechanism.js';
import { readReleased } from '../method-kit/released-table.js';
import { checkPublishedStatement } from './published-statement.js';
import { checkRecodedValues } from './recoded-values.js';

export interface ChainVerifyContext {
  readonly dir: string;
  readonly report: Report;
  readonly internal?: Report;
  readonly checks: CheckList;
  /** The release's tables, in the order the run wrote them (the first holds the quasi-identifiers). */
  readonly tables: readonly ReleasedTableName[];
}

/**
 * The report as one step's own would read: its method, its guarantee's words and its sentences, and
 * the job with its method. The sections and figures are the chain's (each step reads its own).
 */
export function stepView(report: Report, step: 0 | 1): Report {
  const s = report.chain!.steps[step]!;
  const methods = report.job['method'] as readonly unknown[];
  const { holds: _holds, ...figures } = report.guarantee;
  return {
    ...report,
    job: { ...report.job, method: methods[step] },
    method: { type: s.type, title: s.title, parameters: s.parameters, derived: s.derived, ...(s.levels ? { levels: s.levels } : {}) },
    guarantee: { ...figures, ...s.guarantee },
    summary: s.summary,
    warnings: s.warnings,
  };
}

const mechanismOf = (job: Job): NodeMechanism<Job['method']> => nodeMechanismOf(job.method.type) as NodeMechanism<Job['method']>;

export function verifyChain(ctx: ChainVerifyContext, steps: ChainSteps): void {
  const { report, checks, dir } = ctx;
  const methods = report.job['method'];
  const shaped = report.chain !== undefined && Array.isArray(methods) && methods.length === 2 && report.chain.steps.every((s, i) => s.type === steps[i]!.method.type);
  checks.add('chain', shaped, shaped ? `${steps[0].method.type}, then ${steps[1].method.type} on its release` : "report.json's chain does not name the published job's two steps");
  if (!shaped || !parseReport(report, 'external').ok) return;
  const views = [stepView(report, 0), stepView(report, 1)] as const;
  const written = views.map((view, i) => {
    const write = mechanismOf(steps[i]!).publishedStatement;
    checkPublishedStatement(view, write, checks, `published sentences, step ${i + 1} (${steps[i]!.method.type})`);
    try {
      return write(view);
    } catch {
      return undefined;
    }
  });
  const [one, two] = written;
  if (one && two) {
    const words = (i: 0 | 1, w: typeof one) => ({ title: report.chain!.steps[i]!.title, ...w });
    checkPublishedStatement(report, () => chainStatement(words(0, one), words(1, two)), checks, 'published sentences, the chain', "the chain (from its steps' sentences written again)");
  } else checks.add('published sentences, the chain', false, "a step's sentences could not be written again from report.json");
  const quasiTable = ctx.tables[0]!;
  const hierarchies = (steps[0].method as { hierarchies?: Record<string, HierarchySpec> }).hierarchies;
  if (hierarchies && report.anonymity) {
    try {
      checkRecodedValues(report, hierarchies, readReleased(dir, quasiTable.stem, quasiTable.sheetName, steps[0].output.delimiter), checks);
    } catch (error) {
      checks.add('recoded values of their hierarchies', false, `the release cannot be read: ${(error as Error).message}`);
    }
  }
  // The attribute step's input was the identity step's release, which neither the original nor the
  // internal report's input is: its checks run on the released files alone.
  checks.run(`guarantee checks, step 2 (${steps[1].method.type})`, () => mechanismOf(steps[1]).verify({ dir, report: views[1], job: steps[1], checks }, steps[1].method));
  checks.run(`guarantee checks, step 1 (${steps[0].method.type}) on the released ${quasiTable.stem}`, () =>
    mechanismOf(steps[0]).verify({ dir, report: views[0], job: steps[0], checks, quasiTable, ...(ctx.internal ? { internal: ctx.internal } : {}) }, steps[0].method),
  );
  checks.notChecked('each step against the original', "the first step's release, which the second step read and which is not published; both steps are re-checked from the released files instead");
}
