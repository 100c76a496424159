import { shuffleInPlace, uniformInt } from './draws.js';
import type { RandomSource } from './source.js';

/**
 * Uniformly random permutations of arrays too large for the processor's caches.
 *
 * Fisher–Yates swaps each element with one at a random place: over a million rows every swap misses
 * the caches, twice when two arrays move together, and more so while another thread fills them
 * (150 ms of a 1M-row release against 30 ms alone). Above PILE_ABOVE elements the shuffle is
 * Rao–Sandelius's instead (Sandelius 1962, "A simple randomization procedure"): each element is put
 * on one of K piles drawn uniformly and independently, the piles are laid out in pile order (each in
 * the elements' order), and each pile is shuffled by Fisher–Yates in place, where it fits the cache.
 *
 * It is exactly uniform. Fix a final arrangement. The pile sizes c_1…c_K decide which places belong
 * to which pile, so exactly one assignment of elements to piles leads to it (probability K^−n), and
 * then each pile's own order (probability 1/c_k!). Summing over the sizes,
 * Σ K^−n · Π 1/c_k! = K^−n · K^n / n! = 1/n!, since Σ n!/Π c_k! over the sizes is K^n.
 *
 * Piles are chosen from the bits of whole random words (K is a power of two), so no pile choice is
 * rejected or rounded; the Fisher–Yates draws are uniformInt's exact rejection sampling.
 */

/** At and below this many elements, plain Fisher–Yates (the arrays fit the caches): the same draws as always. */
export const PILE_ABOVE = 1 << 16;
/** About this many elements per pile: a pile of two 4-byte arrays then stays in the second-level cache. */
const PILE_ELEMENTS = 4096;
/** At most 2^12 piles: the layout's writes go to at most this many places at once. */
const MAX_PILE_BITS = 12;

/** Shuffles the arrays (of one length) together: the element at place i of each moves to the same place. */
export function shuffleTogether(source: RandomSource, arrays: readonly Uint32Array[]): void {
  const n = arrays[0]?.length ?? 0;
  if (arrays.some((a) => a.length !== n)) throw new RangeError('shuffleTogether: arrays of different lengths');
  if (n <= PILE_ABOVE) fisherYates(source, arrays, 0, n);
  else shuffleInPiles(source, arrays, pileBitsFor(n));
}

/** log2 of the number of piles for n elements: piles of about PILE_ELEMENTS. */
function pileBitsFor(n: number): number {
  return Math.min(MAX_PILE_BITS, Math.max(1, Math.round(Math.log2(n / PILE_ELEMENTS))));
}

/**
 * Rao–Sandelius with 2^bits piles (exported for the tests, which shuffle few elements into piles to
 * check every arrangement's frequency).
 */
export function shuffleInPiles(source: RandomSource, arrays: readonly Uint32Array[], bits: number): void {
  const n = arrays[0]?.length ?? 0;
  if (!Number.isInteger(bits) || bits < 1 || bits > MAX_PILE_BITS) throw new RangeError(`shuffleInPiles: bad pile bits ${bits}`);
  const piles = 1 << bits;
  const mask = piles - 1;
  // Each word gives floor(32 / bits) pile choices of `bits` bits each; leftover bits are not used.
  const perWord = Math.floor(32 / bits);
  const pileOf = new Uint16Array(n);
  const start = new Uint32Array(piles + 1);
  for (let i = 0; i < n; ) {
    let word = source.nextUint32();
    for (let k = 0; k < perWord && i < n; k++, i++) {
      const pile = word & mask;
      word >>>= bits;
      pileOf[i] = pile;
      start[pile + 1]!++;
    }
  }
  for (let p = 0; p < piles; p++) start[p + 1]! += start[p]!;
  // Each pile in the elements' order, piles in pile order.
  const laid = new Uint32Array(n);
  const next = new Uint32Array(piles);
  for (const values of arrays) {
    next.set(start.subarray(0, piles));
    layOut(values, laid, pileOf, next);
    values.set(laid);
  }
  for (let p = 0; p < piles; p++) fisherYates(source, arrays, start[p]!, start[p + 1]!);
}

function layOut(values: Uint32Array, laid: Uint32Array, pileOf: Uint16Array, next: Uint32Array): void {
  for (let i = 0; i < values.length; i++) laid[next[pileOf[i]!]!++] = values[i]!;
}

/** Fisher–Yates over places [from, to) of every array, with the same draws whatever the number of arrays. */
function fisherYates(source: RandomSource, arrays: readonly Uint32Array[], from: number, to: number): void {
  // One or two arrays (a release's rows and one sensitive column) are the usual case: swapped without a loop over arrays.
  if (arrays.length === 1) shuffleInPlace(source, arrays[0]!.subarray(from, to));
  else if (arrays.length === 2) fisherYatesPair(source, arrays[0]!, arrays[1]!, from, to);
  else {
    for (let i = to - 1; i > from; i--) {
      const j = from + uniformInt(source, i - from + 1);
      for (const values of arrays) swap(values, i, j);
    }
  }
}

function fisherYatesPair(source: RandomSource, a: Uint32Array, b: Uint32Array, from: number, to: number): void {
  for (let i = to - 1; i > from; i--) {
    const j = from + uniformInt(source, i - from + 1);
    swap(a, i, j);
    swap(b, i, j);
  }
}

function swap(values: Uint32Array, i: number, j: number): void {
  const t = values[i]!;
  values[i] = values[j]!;
  values[j] = t;
}
