import type { ReleaseColumn } from './release-table.js';

/**
 * Each released column's codes in released-row order, gathered once through its `via` and kept
 * while the column's arrays are: a run reads the same released columns in the disclosure review,
 * the risk profile's input, the workbook's sheets and the CSV writer, and each gathered them again
 * (a random read per row and column, a fifth of a second per reader on a million rows).
 *
 * Keyed by the column's `via` and `codes` arrays, not by the table: tables over the same arrays (a
 * column compaction left as it was) share one gathering. The arrays handed out are shared: readers
 * must not write into them.
 */
const gathered = new WeakMap<Uint32Array, WeakMap<Uint32Array, Uint32Array>>();

/**
 * Columns compaction renumbered (compactReleaseTable), by `via` and the codes they had: the codes
 * they have now, and each new code's old code. A reader of the column as the method made it (the
 * analysis utility reads the input's codes) maps the compacted column's gathering back, a pass in
 * order, instead of gathering again at random.
 */
const renumbered = new WeakMap<Uint32Array, WeakMap<Uint32Array, { readonly codes: Uint32Array; readonly oldCode: Uint32Array }>>();

/**
 * Codes compaction made (by the new codes array): the column's `via` and the codes it had. The
 * release's classes of its quasi-identifiers are counted on the codes as the method made them
 * (known-tuple-ids.ts), which compaction only renumbers.
 */
const compactedFrom = new WeakMap<Uint32Array, { readonly via: Uint32Array; readonly codes: Uint32Array }>();

/**
 * The codes the column had before compaction renumbered them (one to one on every code a released
 * row reads, so rows agree on the one where they agree on the other), or its codes as they are.
 */
export function codesAsMade(column: ReleaseColumn): Uint32Array {
  const from = compactedFrom.get(column.codes);
  return from && from.via === column.via ? from.codes : column.codes;
}

/** The column's codes of released rows 0 … rows − 1 when they are already gathered (or follow from a gathering), else undefined. */
export function gatheredCodes(column: ReleaseColumn, rows: number): Uint32Array | undefined {
  if (!column.via) return rows === column.codes.length ? column.codes : column.codes.subarray(0, rows);
  const kept = gathered.get(column.via)?.get(column.codes);
  if (kept) return kept.length === rows ? kept : undefined;
  return fromCompacted(column.via, column.codes, rows);
}

/** gatheredCodes as an array of the caller's own: copied where it is the column's codes or the run's gathering, as made where it follows from a compacted column's. */
export function ownGatheredCodes(column: ReleaseColumn, rows: number): Uint32Array | undefined {
  if (!column.via) return column.codes.slice(0, rows);
  const kept = gathered.get(column.via)?.get(column.codes);
  if (kept) return kept.length === rows ? kept.slice() : undefined;
  return fromCompacted(column.via, column.codes, rows);
}

/** The codes of a column compaction renumbered, mapped back from the compacted column's gathering (a new array), else undefined. */
function fromCompacted(via: Uint32Array, codes: Uint32Array, rows: number): Uint32Array | undefined {
  const compacted = renumbered.get(via)?.get(codes);
  const keptCompacted = compacted && gathered.get(via)?.get(compacted.codes);
  if (!keptCompacted || keptCompacted.length !== rows) return undefined;
  const out = new Uint32Array(rows);
  const oldCode = compacted.oldCode;
  for (let r = 0; r < rows; r++) out[r] = oldCode[keptCompacted[r]!]!;
  return out;
}

/** Notes that compaction gave `column` (read through `via`) the codes `codes`, new code k standing for old code oldCode[k]. */
export function noteRenumbering(column: ReleaseColumn, codes: Uint32Array, oldCode: Uint32Array): void {
  if (!column.via) return;
  let byCodes = renumbered.get(column.via);
  if (!byCodes) renumbered.set(column.via, (byCodes = new WeakMap()));
  byCodes.set(column.codes, { codes, oldCode });
  compactedFrom.set(codes, { via: column.via, codes: column.codes });
}

/** Keeps a column's gathered codes of its first `codes.length` released rows for the other readers. */
export function keepGatheredCodes(column: ReleaseColumn, codes: Uint32Array): void {
  if (!column.via) return;
  let byCodes = gathered.get(column.via);
  if (!byCodes) gathered.set(column.via, (byCodes = new WeakMap()));
  byCodes.set(column.codes, codes);
}

/**
 * The most a run's gathering (4 bytes per released row and column) is kept for the analysis
 * utility, which then reads the columns as the method made them from it (a pass in order per
 * column, where gathering again is a random read per row and column: 0.15 s of a million-row run).
 * A larger one is forgotten first, so at census scale it does not stay beside what the analysis
 * and the risk profile hold.
 */
export const KEPT_FOR_ANALYSIS_BYTES = 256 << 20;

/**
 * Forgets the gathering of each column of `columns` when it passes KEPT_FOR_ANALYSIS_BYTES: a run
 * asks once the readers above are done.
 */
export function forgetGatheredCodes(columns: readonly ReleaseColumn[], rows: number, keptUpTo = KEPT_FOR_ANALYSIS_BYTES): void {
  if (rows * columns.length * Uint32Array.BYTES_PER_ELEMENT <= keptUpTo) return;
  for (const column of columns) if (column.via) gathered.get(column.via)?.delete(column.codes);
}
