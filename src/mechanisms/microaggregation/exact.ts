/**
 * Released values and information loss computed exactly from the decimals as written.
 *
 * A column's values are read as decimals (the text of the data, never its double: "9007199254740993"
 * is not 9007199254740992) and held as integers at the column's scale s, value = M / 10^s, in bigint.
 * A group's mean is then an exact rational, Σ M / (size · 10^s), rounded half away from zero to the
 * stated decimal places by integer division: the released value is exactly what the rounding rule
 * says, whatever the magnitudes (±1e308 sum without overflow; 1e-300 keeps its digits). The
 * information-loss figures are exact ratios of integers, converted to a double once at the end.
 *
 * The partition itself (MDAV) runs on doubles: it is a heuristic choice of groups, and the guarantee
 * (group sizes, one value per group) does not depend on how the distances round.
 */
import type { MdavPartition } from './mdav.js';

/** The most decimal places a value may have (after its exponent): 1e-400 is the smallest step taken exactly. */
export const MAX_DECIMAL_PLACES = 400;

/** A decimal number as written in data ("37", "-2.5", ".5", "1e3"); JavaScript's Number() would also take "0x10" or "". */
const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

/**
 * The exact value of a decimal text, digits × 10^exponent (trailing zeros of the digits moved into the
 * exponent); undefined if the text is not a decimal number. An exponent too long for a double comes
 * back as ±Infinity: the caller refuses it before any power of ten is formed.
 */
export function parseDecimal(text: string): { digits: bigint; exponent: number } | undefined {
  const match = DECIMAL.exec(text.trim());
  if (!match) return undefined;
  const [, sign, whole = '', fraction = '', exp = '0'] = match;
  if (whole === '' && fraction === '') return undefined;
  let digits = (whole + fraction).replace(/^0+/, '');
  let exponent = Number(exp) - fraction.length;
  const zeros = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - zeros);
  exponent += zeros;
  if (digits === '') return { digits: 0n, exponent: 0 };
  const value = BigInt(digits);
  return { digits: sign === '-' ? -value : value, exponent };
}

/** One aggregated column held exactly: value of record r = entries[codes[r]] / 10^scale. */
export interface ExactColumn {
  readonly scale: number;
  /** Per dictionary code, the value as an integer at the column's scale (0n for codes no record has). */
  readonly entries: readonly bigint[];
  readonly codes: Uint32Array;
}

const powers: bigint[] = [1n];
/** 10^e as a bigint, cached. */
export function tenTo(e: number): bigint {
  while (powers.length <= e) powers.push(powers[powers.length - 1]! * 10n);
  return powers[e]!;
}

/** The column at one scale: the largest number of decimal places its values have (0 for integers). */
export function exactColumn(parsed: readonly ({ digits: bigint; exponent: number } | undefined)[], codes: Uint32Array): ExactColumn {
  const used = new Uint8Array(parsed.length);
  for (let r = 0; r < codes.length; r++) used[codes[r]!] = 1;
  let scale = 0;
  parsed.forEach((p, code) => {
    if (used[code] && p && p.digits !== 0n) scale = Math.max(scale, -p.exponent);
  });
  const entries = parsed.map((p, code) => (used[code] && p ? p.digits * tenTo(p.exponent + scale) : 0n));
  return { scale, entries, codes };
}

/** a / b rounded half away from zero (b > 0). */
export function roundHalfAway(a: bigint, b: bigint): bigint {
  const negative = a < 0n;
  const abs = negative ? -a : a;
  let q = abs / b;
  if (2n * (abs - q * b) >= b) q += 1n;
  return negative ? -q : q;
}

/**
 * Each group's released value as an integer count of 10^−decimals: its exact mean (or median: the
 * middle value, or the exact mean of the middle two, as R's median) rounded half away from zero.
 */
export function exactGroupValues(column: ExactColumn, partition: MdavPartition, how: 'mean' | 'median', decimals: number): bigint[] {
  const { groupOf, sizes, count } = partition;
  const { entries, codes, scale } = column;
  const n = codes.length;
  // Per group: a numerator over size · 10^scale (mean), or over 2 · 10^scale (an even median) or 10^scale.
  const numerators: bigint[] = new Array<bigint>(count).fill(0n);
  const denominators: bigint[] = new Array<bigint>(count);
  if (how === 'mean') {
    // Integer sums are exact in doubles while every partial sum stays below 2^53: then one bigint per group, not per record.
    let largest = 0;
    for (const e of entries) largest = Math.max(largest, Math.abs(Number(e)));
    if (largest * n < 2 ** 53) {
      const sums = new Float64Array(count);
      const asNumbers = Float64Array.from(entries, Number);
      for (let r = 0; r < n; r++) sums[groupOf[r]!]! += asNumbers[codes[r]!]!;
      for (let g = 0; g < count; g++) numerators[g] = BigInt(sums[g]!);
    } else {
      for (let r = 0; r < n; r++) numerators[groupOf[r]!]! += entries[codes[r]!]!;
    }
    for (let g = 0; g < count; g++) denominators[g] = BigInt(sizes[g]!);
  } else {
    // Entries ranked by exact value once; each group's codes sorted by rank (counting sort into groups first).
    const order = entries.map((_, code) => code).sort((a, b) => (entries[a]! < entries[b]! ? -1 : entries[a]! > entries[b]! ? 1 : 0));
    const rank = new Uint32Array(entries.length);
    order.forEach((code, i) => (rank[code] = i));
    const offsets = new Uint32Array(count + 1);
    for (let g = 0; g < count; g++) offsets[g + 1] = offsets[g]! + sizes[g]!;
    const cursor = offsets.slice(0, count);
    const ranks = new Uint32Array(n);
    for (let r = 0; r < n; r++) ranks[cursor[groupOf[r]!]!++] = rank[codes[r]!]!;
    for (let g = 0; g < count; g++) {
      const group = ranks.subarray(offsets[g]!, offsets[g + 1]!).sort();
      const m = group.length;
      if (m % 2 === 1) {
        numerators[g] = entries[order[group[(m - 1) / 2]!]!]!;
        denominators[g] = 1n;
      } else {
        numerators[g] = entries[order[group[m / 2 - 1]!]!]! + entries[order[group[m / 2]!]!]!;
        denominators[g] = 2n;
      }
    }
  }
  const up = tenTo(decimals);
  const down = tenTo(scale);
  return numerators.map((num, g) => roundHalfAway(num * up, denominators[g]! * down));
}

/**
 * The text of value / 10^decimals, exactly, without trailing zeros ("37.4", "-3", "0"): plain digits
 * below 10^21, as JavaScript writes numbers; above, d.ddd…e+N with every digit kept.
 */
export function decimalText(value: bigint, decimals: number): string {
  if (value === 0n) return '0';
  const sign = value < 0n ? '-' : '';
  const digits = (value < 0n ? -value : value).toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  if (whole.length <= 21) return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
  const mantissa = (whole.slice(1) + fraction).replace(/0+$/, '');
  return `${sign}${whole[0]}${mantissa ? `.${mantissa}` : ''}e+${whole.length - 1}`;
}

/** The number of bits of a positive bigint. */
function bits(x: bigint): number {
  return x.toString(16).length * 4;
}

/** num / den (both ≥ 0, den > 0) as the nearest double, however large the two are. */
export function quotient(num: bigint, den: bigint): number {
  if (num === 0n) return 0;
  const shift = bits(den) - bits(num) + 64;
  const q = shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift));
  // 2^−shift in two factors: one power of two may underflow or overflow where the product does not.
  const half = Math.trunc(shift / 2);
  return Number(q) * 2 ** -half * 2 ** -(shift - half);
}

export interface InformationLoss {
  /** Σ_r ‖z_r − z′_r‖² on the z-scores (a constant column in its own units, as sdcMicro weighs it 1). */
  readonly sse: number;
  /** Σ_r ‖z_r − z̄‖²: n per column that is not constant. */
  readonly sst: number;
  /** SSE / SST; undefined when SST = 0 (every column constant) and rounding moved some value: not computable. */
  readonly ratio: number | undefined;
  /** sdcMicro's IL1s: (1/(n·p)) Σ_j Σ_r |x − x′| / S_j · √2. */
  readonly il1s: number;
}

/**
 * SSE/SST (Domingo-Ferrer & Mateo-Sanz 2002) and sdcMicro's IL1s of the release, exactly: every sum is
 * an integer at the column's scale, and each column's figure one ratio of integers.
 * released[j][g] is group g's released value of column j as an integer count of 10^−decimals.
 */
export function informationLoss(columns: readonly ExactColumn[], released: readonly (readonly bigint[])[], partition: MdavPartition, decimals: number): InformationLoss {
  const { groupOf } = partition;
  const n = partition.groupOf.length;
  const bn = BigInt(n);
  let sse = 0;
  let sst = 0;
  let il1 = 0;
  columns.forEach((column, j) => {
    const { entries, codes, scale } = column;
    // n · Σ(x − x̄)² · 10^(2·scale) = n·ΣM² − (ΣM)², from each value's count.
    const counts = new Float64Array(entries.length);
    for (let r = 0; r < n; r++) counts[codes[r]!]!++;
    let s1 = 0n;
    let s2 = 0n;
    entries.forEach((m, code) => {
      if (counts[code] === 0) return;
      const c = BigInt(counts[code]!);
      s1 += c * m;
      s2 += c * m * m;
    });
    const spread = bn * s2 - s1 * s1;
    // x − x′ at scale 10^(scale + decimals): M·10^decimals − Q·10^scale.
    const up = tenTo(decimals);
    const down = tenTo(scale);
    const releasedScaled = released[j]!.map((q) => q * down);
    let squares = 0n;
    let absolute = 0n;
    for (let r = 0; r < n; r++) {
      const d = entries[codes[r]!]! * up - releasedScaled[groupOf[r]!]!;
      squares += d * d;
      absolute += d < 0n ? -d : d;
    }
    if (spread === 0n) {
      // A constant column keeps weight 1 (sdcMicro's): its rounding error in its own units; no IL1s term (sd 0).
      sse += quotient(squares, tenTo(2 * (scale + decimals)));
      return;
    }
    // Σ(x − x′)² / variance = Σ d² · n² / (spread · 10^(2·decimals)); SST adds n.
    sse += quotient(squares * bn * bn, spread * up * up);
    sst += n;
    // Σ|x − x′| / S, S² = spread / (n (n − 1) 10^(2·scale)): √(A² n (n − 1) / (spread · 10^(2·decimals))).
    if (n >= 2) il1 += Math.sqrt(quotient(absolute * absolute * bn * (bn - 1n), spread * up * up)) * Math.SQRT2;
  });
  const ratio = sst > 0 ? sse / sst : sse === 0 ? 0 : undefined;
  return { sse, sst, ratio, il1s: n >= 2 && columns.length > 0 ? il1 / (n * columns.length) : 0 };
}
