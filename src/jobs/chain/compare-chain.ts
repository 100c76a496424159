/**
 * A chain as one candidate of `custos compare`: its guarantee is the composed statement, its risk the
 * larger of the two attacks on the final release (the identity step's re-identification through the
 * released quasi-identifiers, which the attribute step keeps as released; the attribute step's own
 * attack on the sensitive value), its utility the common pool answered from the final release.
 */
import type { ReleasedRecords } from '../../common/compare/released-records.js';
import type { Column, Table } from '../../common/table/table.js';
import type { ReleaseColumn, ReleaseTable } from '../../io/output/release-table.js';
import { comparedPartsOf } from '../../mechanisms/node-registry.js';
import type { CandidateRisk } from '../method-kit/compare-kit.js';
import type { MethodOutcome } from '../method-kit/outcome.js';
import type { ChainOutcomes } from './run-chain.js';

/** The chain as compare names it: its steps' types, as `custos init --method` takes them. */
export const chainType = (outcomes: ChainOutcomes): string => `${outcomes.identity.method.type},${outcomes.attribute.method.type}`;

export const chainTitle = (outcomes: ChainOutcomes): string => `${outcomes.identity.method.title}, then ${outcomes.attribute.method.title}`;

/** The composed guarantee's short label, from each step's own. */
export function chainGuaranteeLabel(outcomes: ChainOutcomes, label: (outcome: MethodOutcome) => string): string {
  return `${label(outcomes.identity)}; then ${label(outcomes.attribute)} within the released groups`;
}

/**
 * The larger of the two attacks, each over the input's records: a record is exposed when either
 * recovers it. The attribute step's adversary knows the target's released record (as its paper's
 * does); with recoded quasi-identifiers a chain's adversary knows only the record's class, so that
 * share is an upper bound.
 */
export function chainRisk(outcomes: ChainOutcomes, inputRows: number): CandidateRisk {
  const identity = comparedPartsOf(outcomes.identity.method.type).node.risk(outcomes.identity, inputRows);
  const attribute = comparedPartsOf(outcomes.attribute.method.type).node.risk(outcomes.outcome, inputRows);
  const share = Math.max(identity.share, attribute.share);
  const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(2)} %` : 'not measured');
  return {
    share: Number.isNaN(identity.share) || Number.isNaN(attribute.share) ? Number.NaN : share,
    measure:
      `the larger of two attacks on the final release: (1) identity (${outcomes.identity.method.title}), ${identity.measure}: ${pct(identity.share)}; ` +
      `(2) the sensitive value within the released groups (${outcomes.attribute.method.title}), ${attribute.measure}, an adversary who knows the target's released record (an upper bound where the quasi-identifiers are recoded): ${pct(attribute.share)}`,
  };
}

/**
 * The final release as the common pool reads it. The attribute step read the identity step's release
 * as its input, so the columns it carries over point into the identity step's released rows, not
 * into the input's: each is pointed into the input's rows through the identity step's release (a
 * recoded value then covers the input values it generalizes), and the attribute step's own reading
 * (its sensitive column) is applied as for the method alone.
 */
export function chainReleasedRecords(outcomes: ChainOutcomes, truth: Table, poolColumns: readonly Column[]): ReleasedRecords {
  const first = outcomes.identity.releases[0]!.table;
  const final = outcomes.outcome.releases[0]!.table;
  const sensitive = new Set(outcomes.attribute.plan.columns.filter((c) => c.role === 'sensitive').map((c) => c.column.name));
  const translated: ReleaseTable = {
    rowCount: final.rowCount,
    columns: final.columns.map((column) => {
      const before = first.columns.find((c) => c.name === column.name);
      return before && !sensitive.has(column.name) ? inInputRows(column, before, first.rowCount, truth.rowCount) : column;
    }),
  };
  const [main, ...rest] = outcomes.outcome.releases;
  const outcome: MethodOutcome = { ...outcomes.outcome, releases: [{ ...main!, table: translated }, ...rest] };
  return comparedPartsOf(outcomes.attribute.method.type).node.releasedRecords(outcome, truth, poolColumns);
}

/**
 * A column of the final release, whose codes are kept per row of the identity step's release, kept
 * per input row instead: the input row of each identity-released row is that release's `via`. Input
 * rows the identity step did not release hold a code of their own that no released record carries.
 */
function inInputRows(column: ReleaseColumn, before: ReleaseColumn, firstRows: number, inputRows: number): ReleaseColumn {
  if (column.codes.length !== firstRows) return column;
  const absent = column.dictionary.length;
  const codes = new Uint32Array(inputRows).fill(absent);
  const inputRowOf = (s: number): number => (before.via ? before.via[s]! : s);
  for (let s = 0; s < firstRows; s++) codes[inputRowOf(s)] = column.codes[s]!;
  const via = Uint32Array.from({ length: column.via ? column.via.length : firstRows }, (_, q) => inputRowOf(column.via ? column.via[q]! : q));
  return { ...column, dictionary: [...column.dictionary, ''], codes, via };
}
