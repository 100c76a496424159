import type { ReleaseTable } from './release-table.js';

/**
 * Columns read through the same `via` (the rows of the input a release shows),
 * their codes packed side by side in the bits of one Uint32Array indexed by
 * input row. A block of released rows then reads each pack at random once per
 * row instead of each column: on the 1M-row census, nine columns in two packs.
 */
export interface CodePack {
  readonly via: Uint32Array;
  /** Bit fields of input row r: column columns[k] at shifts[k], masks[k] wide. */
  readonly packed: Uint32Array;
  readonly columns: readonly number[];
  readonly shifts: readonly number[];
  readonly masks: readonly number[];
}

/** A column wider than this is gathered on its own: packing it would leave no room for another. */
const MAX_FIELD_BITS = 16;

function bitsFor(dictionaryLength: number): number {
  let bits = 1;
  while (2 ** bits < dictionaryLength) bits++;
  return bits;
}

/** The packs of a table, made once and kept while the table is (every writer of a release reads them). */
const packsOfTable = new WeakMap<ReleaseTable, readonly CodePack[]>();

export function codePacks(table: ReleaseTable): readonly CodePack[] {
  let packs = packsOfTable.get(table);
  if (!packs) packsOfTable.set(table, (packs = buildPacks(table)));
  return packs;
}

interface Fields {
  readonly columns: number[];
  readonly shifts: number[];
  readonly masks: number[];
  used: number;
}

function buildPacks(table: ReleaseTable): CodePack[] {
  const byVia = new Map<Uint32Array, number[]>();
  table.columns.forEach((c, j) => {
    if (!c.via || bitsFor(c.dictionary.length) > MAX_FIELD_BITS) return;
    const list = byVia.get(c.via) ?? [];
    list.push(j);
    byVia.set(c.via, list);
  });
  const packs: CodePack[] = [];
  for (const [via, members] of byVia) {
    // Greedy in column order: a field goes into the last pack while its 32 bits hold it.
    const groups: Fields[] = [];
    for (const j of members) {
      const bits = bitsFor(table.columns[j]!.dictionary.length);
      let current = groups.at(-1);
      if (!current || current.used + bits > 32) groups.push((current = { columns: [], shifts: [], masks: [], used: 0 }));
      current.columns.push(j);
      current.shifts.push(current.used);
      current.masks.push((1 << bits) - 1);
      current.used += bits;
    }
    for (const g of groups) {
      // A pack of one column saves nothing over gathering the column itself.
      if (g.columns.length < 2) continue;
      const rows = table.columns[g.columns[0]!]!.codes.length;
      const packed = new Uint32Array(rows);
      g.columns.forEach((j, k) => {
        const column = table.columns[j]!;
        // A code past its dictionary would spill into its neighbour's bits: refused, not written.
        if (orShifted(packed, column.codes, g.shifts[k]!) >= column.dictionary.length) throw new RangeError(`column "${column.name}" has a code past its dictionary`);
      });
      packs.push({ via, packed, columns: g.columns, shifts: g.shifts, masks: g.masks });
    }
  }
  return packs;
}

/** ORs the codes in at `shift`; returns the largest code. */
function orShifted(packed: Uint32Array, codes: Uint32Array, shift: number): number {
  let largest = 0;
  for (let r = 0; r < codes.length; r++) {
    const code = codes[r]!;
    if (code > largest) largest = code;
    packed[r] = (packed[r]! | (code << shift)) >>> 0;
  }
  return largest;
}

/** Unpacks the first `count` gathered pack values into each member column's own array (outs[column]). */
export function unpackFields(pack: CodePack, gathered: Uint32Array, count: number, outs: readonly Uint32Array[]): void {
  pack.columns.forEach((j, k) => extract(outs[j]!, gathered, pack.shifts[k]!, pack.masks[k]!, count));
}

function extract(out: Uint32Array, gathered: Uint32Array, shift: number, mask: number, count: number): void {
  for (let i = 0; i < count; i++) out[i] = (gathered[i]! >>> shift) & mask;
}
