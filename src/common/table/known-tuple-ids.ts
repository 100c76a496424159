/**
 * Tuple ids (tupleIds) a run has already counted over every row of some columns, kept by the columns'
 * code arrays so a later reader of the same values through a row index need not hash the tuples again.
 *
 * A method that publishes input columns as collected, in a shuffled order (the randomized-response
 * methods: released row r shows input row sourceRow[r]), forms its micro groups from exactly the
 * columns the disclosure review then groups the release by. The release's classes are the input's
 * classes read through sourceRow, renumbered by first released row: the same ids tupleIds gives on
 * the released codes, in one pass of look-ups instead of a pass of mixed-radix keys per column and a
 * hash table of every distinct tuple (a fifth of a second of a million-row run).
 *
 * Kept by a run's analysis (analyzeStartingUtility: runs only, where the quasi-identifiers are the
 * micro groups' columns) while the code arrays are (a WeakMap on each array), and taken at most once:
 * the ids of a census are 4 bytes a row, and no run groups the same release twice.
 */

interface KnownIds {
  readonly codes: readonly Uint32Array[];
  readonly ids: Uint32Array;
  readonly count: number;
}

const known = new WeakMap<Uint32Array, KnownIds>();

/**
 * Keeps tupleIds(columns with these codes, every row): `ids` numbers each row's tuple, `count` tuples.
 * The arrays must not be written afterwards (input columns never are): the ids are a function of them.
 */
export function keepTupleIds(codes: readonly Uint32Array[], ids: Uint32Array, count: number): void {
  if (codes.length === 0 || codes.some((c) => c.length !== ids.length)) return;
  const entry = { codes: [...codes], ids, count };
  for (const c of codes) known.set(c, entry);
}

/**
 * The classes of rows 0 … rows − 1 whose tuple of the columns is codes[j][via[r]], numbered by
 * first row as tupleIds numbers them, when the ids of exactly these arrays (in any order: classes do
 * not depend on the columns' order) were kept; else undefined. Forgets the kept ids.
 */
export function tupleIdsThrough(codes: readonly Uint32Array[], via: Uint32Array, rows: number): { ids: Uint32Array; count: number } | undefined {
  const entry = codes.length > 0 ? known.get(codes[0]!) : undefined;
  if (!entry || !sameArrays(entry.codes, codes) || via.length < rows) return undefined;
  for (const c of entry.codes) known.delete(c);
  const inputIds = entry.ids;
  const renumber = new Int32Array(entry.count).fill(-1);
  const ids = new Uint32Array(rows);
  let next = 0;
  for (let r = 0; r < rows; r++) {
    const tuple = inputIds[via[r]!]!;
    let id = renumber[tuple]!;
    if (id < 0) renumber[tuple] = id = next++;
    ids[r] = id;
  }
  return { ids, count: next };
}

/** The same arrays as a set (each array once on both sides). */
function sameArrays(a: readonly Uint32Array[], b: readonly Uint32Array[]): boolean {
  if (a.length !== b.length) return false;
  const inA = new Set(a);
  return inA.size === a.length && new Set(b).size === b.length && b.every((c) => inA.has(c));
}
