/**
 * The list L(s1, s2) of all (n1, n2) ≥ 0 with s1·n1 + s2·n2 = |T|, in
 * descending n1, in closed form: element k is
 * (n1⁰ − k·d1, n2⁰ + k·d2) for k = 0 … kLast. Nothing is materialized.
 */
export interface PairList {
  readonly s1: number;
  readonly s2: number;
  readonly n1First: number;
  readonly n2First: number;
  readonly d1: number;
  readonly d2: number;
  readonly kLast: number;
}

export function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return Math.abs(a);
}

/** Inverse of a modulo m (gcd(a, m) = 1, m ≥ 1), by the extended Euclidean algorithm. */
export function modularInverse(a: number, m: number): number {
  if (m === 1) return 0;
  let [oldR, r] = [((a % m) + m) % m, m];
  let [oldS, s] = [1, 0];
  while (r !== 0) {
    const q = Math.floor(oldR / r);
    [oldR, r] = [r, oldR - q * r];
    [oldS, s] = [s, oldS - q * s];
  }
  if (oldR !== 1) throw new RangeError(`${a} has no inverse modulo ${m}`);
  return ((oldS % m) + m) % m;
}

export function pairList(s1: number, s2: number, total: number): PairList | null {
  if (!(s1 > 0 && s2 > s1)) throw new RangeError('pairList needs 0 < s1 < s2');
  const g = gcd(s1, s2);
  if (total % g !== 0) return null;
  const lcm = (s1 / g) * s2;
  const d1 = lcm / s1;
  const d2 = lcm / s2;
  const m1 = s1 / g;
  // Smallest n2 ≥ 0 with s2·n2 ≡ |T| (mod s1); products stay below 2^53 for |T| < 2^40.
  const n2First = m1 === 1 ? 0 : Number((BigInt(total / g) * BigInt(modularInverse((s2 / g) % m1, m1))) % BigInt(m1));
  if (s2 * n2First > total) return null;
  const n1First = (total - s2 * n2First) / s1;
  return { s1, s2, n1First, n2First, d1, d2, kLast: Math.floor(n1First / d1) };
}

export function pairAt(list: PairList, k: number): { n1: number; n2: number } {
  return { n1: list.n1First - k * list.d1, n2: list.n2First + k * list.d2 };
}

export function materialize(list: PairList | null): [number, number][] {
  if (!list) return [];
  return Array.from({ length: list.kLast + 1 }, (_, k) => {
    const p = pairAt(list, k);
    return [p.n1, p.n2];
  });
}
