import { ISO_DATE, type Column } from '../table/table.js';

/**
 * A generalization hierarchy for one column: levels[l] maps every value to its
 * generalization at level l (level 0 is the value itself; the last level is
 * usually "*"). Built from ARX-format rows, numeric intervals or code masking,
 * always from metadata, never from the data.
 */
export interface Hierarchy {
  readonly depth: number;
  generalize(value: string, level: number): string | undefined;
  /** How many original values of the hierarchy a generalized value covers (for the loss metric). */
  coverage(generalized: string, level: number): number;
  /** How many original values the hierarchy itself describes, when its definition says (not for open-ended intervals). */
  readonly leaves: number | undefined;
  /** A value taken from the definition, never from the data, to show what the levels do in a published report. */
  readonly example: string;
}

export class HierarchyError extends Error {}

/** ARX format: one row per value, successive columns coarser. */
export function tableHierarchy(rows: readonly (readonly string[])[]): Hierarchy {
  if (rows.length === 0) throw new HierarchyError('the hierarchy has no rows');
  const depth = rows[0]!.length;
  const byValue = new Map<string, readonly string[]>();
  rows.forEach((row, i) => {
    if (row.length !== depth) throw new HierarchyError(`row ${i + 1} has ${row.length} levels where the first has ${depth}`);
    if (byValue.has(row[0]!)) throw new HierarchyError(`the value "${row[0]}" appears twice (rows ${[...byValue.keys()].indexOf(row[0]!) + 1} and ${i + 1})`);
    byValue.set(row[0]!, row);
  });
  const counts = Array.from({ length: depth }, (_, level) => {
    const c = new Map<string, number>();
    for (const row of rows) c.set(row[level]!, (c.get(row[level]!) ?? 0) + 1);
    return c;
  });
  return {
    depth,
    generalize: (value, level) => byValue.get(value)?.[level],
    coverage: (generalized, level) => counts[level]?.get(generalized) ?? 1,
    leaves: rows.length,
    // The middle row: a table's first rows are often its edge (ages 1, 2, 3 in ARX's Adult hierarchy), not a typical value.
    example: rows[Math.floor(rows.length / 2)]![0]!,
  };
}

/** Top and bottom coding of an interval hierarchy: values ≥ top read "top+", values < bottom read "<bottom". */
export interface CodingBounds {
  readonly bottom?: number;
  readonly top?: number;
}

const BAND = /^(-?\d+)-(-?\d+)$/;

/**
 * Intervals for integer columns: level i groups values into [a, a + width_i − 1]
 * blocks aligned at multiples of width_i (labelled "20-24"), then "*".
 * Widths must grow and each must divide the next, so the levels nest.
 *
 * With top or bottom coding (sdcMicro's topBotCoding), level 1 codes only the extremes (age ≥ 90 →
 * "90+", the rest as collected), and every band level keeps them so: a band that reaches past a bound
 * is cut at it ("80-89" under top 90), so the levels still nest and each label says what it covers.
 */
export function intervalHierarchy(widths: readonly number[], bounds: CodingBounds = {}): Hierarchy {
  widths.forEach((w, i) => {
    if (!Number.isInteger(w) || w < 2) throw new HierarchyError(`interval width ${w} must be an integer ≥ 2`);
    if (i > 0 && w % widths[i - 1]! !== 0) throw new HierarchyError(`interval width ${w} must be a multiple of ${widths[i - 1]} so the levels nest`);
  });
  const { bottom, top } = bounds;
  for (const b of [bottom, top]) if (b !== undefined && !Number.isSafeInteger(b)) throw new HierarchyError(`a top or bottom code must be a whole number, not ${b}`);
  if (bottom !== undefined && top !== undefined && bottom >= top) throw new HierarchyError(`the bottom code ${bottom} must lie below the top code ${top}`);
  const coded = bottom !== undefined || top !== undefined;
  if (widths.length === 0 && !coded) throw new HierarchyError('an interval hierarchy needs widths, or a top or bottom code');
  const first = coded ? 2 : 1;
  const depth = widths.length + first + 1;
  const parse = (value: string): number | undefined => {
    const v = Number(value);
    return /^-?\d+$/.test(value.trim()) && Number.isSafeInteger(v) ? v : undefined;
  };
  const extreme = (v: number): string | undefined => (top !== undefined && v >= top ? `${top}+` : bottom !== undefined && v < bottom ? `<${bottom}` : undefined);
  return {
    depth,
    generalize: (value, level) => {
      if (level === 0) return value;
      if (level === depth - 1) return '*';
      const v = parse(value);
      if (v === undefined) return undefined;
      const coding = extreme(v);
      if (coding !== undefined) return coding;
      if (level < first) return value;
      const w = widths[level - first]!;
      const start = Math.floor(v / w) * w;
      const from = bottom !== undefined ? Math.max(start, bottom) : start;
      const to = top !== undefined ? Math.min(start + w - 1, top - 1) : start + w - 1;
      return `${from}-${to}`;
    },
    coverage: (generalized, level) => {
      if (level === 0) return 1;
      if (level === depth - 1) return Infinity;
      const band = BAND.exec(generalized);
      if (band) return Number(band[2]) - Number(band[1]) + 1;
      // A value kept as collected below the bands covers itself; a top or bottom code is open-ended.
      return parse(generalized) !== undefined ? 1 : Infinity;
    },
    leaves: undefined,
    // Any integer shows the blocks; one past the widest block shows every level differ from the value.
    example: top !== undefined ? String(top + 3) : bottom !== undefined ? String(bottom - 1) : String(widths[widths.length - 1]! + 3),
  };
}

/**
 * Rounding for numeric columns: level i releases the multiple of bases[i − 1] at or below the value
 * (37 → 35 → 30 → 0 for bases 5, 10, 100), then "*". Rounding *down* (a floor, as ARX's interval
 * builder's lower bounds and the "35–39" bands of census tables) rather than to the nearest multiple:
 * only the floor nests, every value of a level-i class landing in one class of level i + 1, when each
 * base divides the next (nearest rounding sends 33 and 37, both 35 at base 5, to 30 and 40 at base
 * 10). The released value stays a number, the lower bound of a band of width bases[i − 1]; negative
 * values round down too (−3 → −5, the band −5 … −1). Decimals are accepted (37.6 → 35 at base 5).
 */
export function roundingHierarchy(bases: readonly number[]): Hierarchy {
  if (bases.length === 0) throw new HierarchyError('a rounding hierarchy needs at least one base');
  bases.forEach((b, i) => {
    if (!Number.isSafeInteger(b) || b < 1) throw new HierarchyError(`rounding base ${b} must be a whole number ≥ 1`);
    if (i > 0 && (b <= bases[i - 1]! || b % bases[i - 1]! !== 0)) throw new HierarchyError(`rounding base ${b} must be a larger multiple of ${bases[i - 1]} so the levels nest`);
  });
  const depth = bases.length + 2;
  const parse = (value: string): number | undefined => {
    const v = value.trim() === '' ? Number.NaN : Number(value);
    return Number.isFinite(v) ? v : undefined;
  };
  return {
    depth,
    generalize: (value, level) => {
      if (level === 0) return value;
      if (level === depth - 1) return '*';
      const v = parse(value);
      if (v === undefined) return undefined;
      const b = bases[level - 1]!;
      return String(Math.floor(v / b) * b);
    },
    // A released multiple covers the base's worth of whole numbers; "*" covers every value.
    coverage: (_generalized, level) => (level === 0 ? 1 : level === depth - 1 ? Infinity : bases[level - 1]!),
    leaves: undefined,
    // Twice the largest base less one: every level differs from the value and from the level before.
    example: String(2 * bases[bases.length - 1]! - 1),
  };
}

/** Masking for codes: level i replaces the last i characters by "*" (12345 → 1234* → 123**), then "*". */
export function maskingHierarchy(length: number): Hierarchy {
  if (!Number.isInteger(length) || length < 1) throw new HierarchyError('the code length must be a positive integer');
  const depth = length + 1;
  return {
    depth,
    generalize: (value, level) => {
      if (level === 0) return value;
      if (level >= length) return '*';
      if (value.length !== length) return undefined;
      return value.slice(0, length - level) + '*'.repeat(level);
    },
    coverage: (_generalized, level) => 10 ** level,
    leaves: 10 ** length,
    example: '1234567890'.repeat(Math.ceil(length / 10)).slice(0, length),
  };
}

/**
 * Dates (ISO 8601, as the readers write them): level 1 keeps the year and month (2021-03), level 2
 * the year (2021), level 3 the decade (2020-2029), then "*". A date-time generalizes by its date.
 */
export function dateHierarchy(): Hierarchy {
  const depth = 5;
  return {
    depth,
    generalize: (value, level) => {
      if (level === 0) return value;
      if (level === depth - 1) return '*';
      if (!ISO_DATE.test(value)) return undefined;
      if (level === 1) return value.slice(0, 7);
      if (level === 2) return value.slice(0, 4);
      const decade = Math.floor(Number(value.slice(0, 4)) / 10) * 10;
      return `${decade}-${decade + 9}`;
    },
    // Days a generalized value covers, for the loss metric: a month, a year, a decade.
    coverage: (_generalized, level) => [1, 30.4375, 365.25, 3652.5][level] ?? Infinity,
    leaves: undefined,
    example: '2021-03-14',
  };
}

export interface GeneralizedColumn {
  readonly name: string;
  /** Generalized code per input row (0 = missing stays missing). */
  readonly codes: Uint32Array;
  readonly dictionary: readonly string[];
  /** Loss of each generalized code: (covered values − 1) / (column's distinct values − 1), capped at 1. */
  readonly loss: Float64Array;
}

/** Values of the data without a path to the root, for a clear error. */
export function unmappedValues(column: Column, hierarchy: Hierarchy): string[] {
  const missing: string[] = [];
  for (let code = 1; code < column.dictionary.length; code++) {
    for (let level = 1; level < hierarchy.depth; level++) {
      if (hierarchy.generalize(column.dictionary[code]!, level) === undefined) {
        missing.push(column.dictionary[code]!);
        break;
      }
    }
  }
  return missing;
}

/** A column recoded at one level of its hierarchy: a dictionary map, then one pass over the codes. */
export function generalizeColumn(column: Column, hierarchy: Hierarchy | undefined, level: number): GeneralizedColumn {
  const distinct = Math.max(2, column.distinct);
  if (!hierarchy || level === 0) {
    return { name: column.name, codes: column.codes, dictionary: column.dictionary, loss: new Float64Array(column.dictionary.length) };
  }
  const dictionary = [''];
  const index = new Map<string, number>();
  const mapping = new Uint32Array(column.dictionary.length);
  const loss: number[] = [0];
  for (let code = 1; code < column.dictionary.length; code++) {
    const g = hierarchy.generalize(column.dictionary[code]!, level);
    if (g === undefined) throw new HierarchyError(`"${column.dictionary[code]}" of "${column.name}" has no generalization at level ${level}`);
    let target = index.get(g);
    if (target === undefined) {
      target = dictionary.length;
      dictionary.push(g);
      index.set(g, target);
      loss.push(Math.min(1, (Math.min(hierarchy.coverage(g, level), distinct) - 1) / (distinct - 1)));
    }
    mapping[code] = target;
  }
  const codes = new Uint32Array(column.codes.length);
  for (let i = 0; i < codes.length; i++) codes[i] = mapping[column.codes[i]!]!;
  return { name: column.name, codes, dictionary, loss: Float64Array.from(loss) };
}

/**
 * The same column with a loss that depends on the hierarchy alone: (covered − 1) / (leaves − 1)
 * with the hierarchy's own number of values, or level / (depth − 1) where the definition gives
 * none (intervals). The report's loss divides by the data's distinct values, which one added
 * record can change; a differentially private search may not score with it.
 */
export function withMetadataLoss(column: GeneralizedColumn, hierarchy: Hierarchy | undefined, level: number): GeneralizedColumn {
  const loss = new Float64Array(column.dictionary.length);
  if (hierarchy && level > 0) {
    const leaves = hierarchy.leaves;
    for (let code = 1; code < column.dictionary.length; code++) {
      loss[code] = leaves !== undefined && leaves > 1 ? (Math.min(hierarchy.coverage(column.dictionary[code]!, level), leaves) - 1) / (leaves - 1) : level / (hierarchy.depth - 1);
    }
  }
  return { ...column, loss };
}
