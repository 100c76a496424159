/**
 * What a mechanism's Node part tells `custos compare` (its `compare` hook), and the readings and
 * attacks several mechanisms share: a release read as the common pool reads it, the identity attack
 * of the k-anonymity methods, the reconstruction test of the randomized-response methods.
 */
import { coveringColumn, randomizedColumn, textColumn, withheldColumn, type ReleasedColumn, type ReleasedRecords } from '../../common/compare/released-records.js';
import type { Column, Table } from '../../common/table/table.js';
import type { ReleaseColumn, ReleaseTable } from '../../io/output/release-table.js';
import { ownGatheredCodes } from '../../io/output/released-codes.js';
import type { MethodOutcome } from './outcome.js';

export interface CandidateRisk {
  /** Share of the input's records the method's own attack model recovers. */
  readonly share: number;
  readonly measure: string;
}

/**
 * How compare measures a mechanism that releases records (its definition's `compare.releasesRecords`):
 * its own attack on the release, and the release as the common pool reads it.
 */
export interface NodeComparison {
  /** The share of the input's records the mechanism's own attack model recovers from this release, and that attack in words. */
  risk(outcome: MethodOutcome, inputRows: number): CandidateRisk;
  /** The release as the common pool reads it: one weight per released code and input value. */
  releasedRecords(outcome: MethodOutcome, truth: Table, poolColumns: readonly Column[]): ReleasedRecords;
}

/**
 * Each released record's code in a released column, whether it points into the input or not: from
 * the run's gathering of the released columns where it still holds this column (released-codes.ts),
 * else read through `via`. Always an array of its own (the gathering is shared).
 */
export function recordCodes(column: ReleaseColumn, rows: number): Uint32Array {
  const gathered = ownGatheredCodes(column, rows);
  if (gathered) return gathered;
  const out = new Uint32Array(rows);
  const via = column.via;
  for (let i = 0; i < rows; i++) out[i] = column.codes[via ? via[i]! : i]!;
  return out;
}

export function columnOf(table: ReleaseTable, name: string): ReleaseColumn | undefined {
  return table.columns.find((c) => c.name === name);
}

/**
 * A released column against the input's: when its codes are kept per input
 * row (it points into the input through `via`), each released value covers the
 * input values of the rows that carry it (a value as collected covers itself, a
 * generalized one every value it generalizes); otherwise values are matched by text.
 */
function plainColumn(truth: Column, released: ReleaseColumn, table: ReleaseTable, inputRows: number): ReleasedColumn {
  const codes = recordCodes(released, table.rowCount);
  if (released.via && released.codes.length === inputRows) return coveringColumn(truth.codes, released.codes, truth.dictionary.length, released.dictionary.length, codes);
  return textColumn(truth.dictionary, released.dictionary, codes);
}

/** A mechanism's own reading of a pool column from its release (main: the first released table), or undefined to read it as released. */
export type ColumnReading = (truthColumn: Column, main: ReleaseTable) => ReleasedColumn | undefined;

/**
 * The release as the common pool reads it: a release of several tables is read from its first (the
 * other tables only through `reading`); a column the first table lacks counts as withheld; a sample
 * counts each record 1/β times.
 */
export function recordsAsReleased(outcome: MethodOutcome, truth: Table, poolColumns: readonly Column[], reading: ColumnReading = () => undefined): ReleasedRecords {
  const main = outcome.releases[0]!.table;
  const records = main.rowCount;
  const columns = poolColumns.map((truthColumn): ReleasedColumn => {
    const own = reading(truthColumn, main);
    if (own) return own;
    const released = columnOf(main, truthColumn.name);
    if (!released) return withheldColumn(records, truthColumn.distinct);
    return plainColumn(truthColumn, released, main, truth.rowCount);
  });
  const sampling = outcome.anonymity?.sampling;
  return { records, scale: sampling !== undefined && sampling > 0 ? 1 / sampling : 1, columns };
}

/** The randomized-response mechanisms' reading: each randomized sensitive column through the unbiased estimator. */
export function randomizedRecords(outcome: MethodOutcome, truth: Table, poolColumns: readonly Column[]): ReleasedRecords {
  const randomized = new Map((outcome.risk.bySensitive ?? []).map((s) => [s.column, s]));
  return recordsAsReleased(outcome, truth, poolColumns, (truthColumn, main) => {
    const released = columnOf(main, truthColumn.name);
    const sensitive = randomized.get(truthColumn.name);
    return released && sensitive ? randomizedColumn(truthColumn.dictionary, released.dictionary, recordCodes(released, main.rowCount), sensitive.retention, sensitive.domainSize) : undefined;
  });
}

/**
 * The k-anonymity methods' attack: expected records re-identified by matching a target's
 * quasi-identifiers to the released classes (one record per class).
 */
export function identityRisk(outcome: MethodOutcome, inputRows: number): CandidateRisk {
  const classes = outcome.risk.reidentification?.release.classes ?? Number.NaN;
  return {
    share: classes / inputRows,
    measure:
      'expected records re-identified by an adversary who matches a target\'s quasi-identifiers to the released classes (one record per class of generalized quasi-identifiers, the marketer risk with the sample standing in for the population: an upper bound), over the input\'s records',
  };
}

/** The reconstruction test of the randomized-response methods, in words: "the (ε = 0.5, δ = 0.3) reconstruction test". */
export function reconstructionTestWords(outcome: MethodOutcome): string {
  const eps = outcome.method.parameters['riskEpsilon'] ?? outcome.method.parameters['epsilon'];
  const delta = outcome.method.parameters['riskDelta'] ?? outcome.method.parameters['delta'];
  return `the (ε = ${String(eps)}, δ = ${String(delta)}) reconstruction test`;
}

/** The largest share of the input's records, over the sensitive columns, that a count of each column gives. */
export function largestSensitiveShare(outcome: MethodOutcome, inputRows: number, rows: (s: NonNullable<MethodOutcome['risk']['bySensitive']>[number]) => number | undefined): number {
  return Math.max(0, ...(outcome.risk.bySensitive ?? []).map((s) => (rows(s) ?? 0) / inputRows));
}
