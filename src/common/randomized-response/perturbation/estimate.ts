/**
 * MLE of a value's frequency from perturbed data (Wang, Han, Fu, Lemma 1(ii)).
 * The raw value may fall outside [0,1]; callers clip only for display.
 */
export function reconstructFrequency(observed: number, size: number, p: number, m: number): number {
  return (observed / size - (1 - p) / m) / p;
}

/** Estimated COUNT(φ⁻ ∧ SA = x) from |S*| published rows of which O* show x. */
export function estimateCount(observed: number, size: number, p: number, m: number): number {
  return (observed - (size * (1 - p)) / m) / p;
}

/** E[O*] = |S|·(f·p + (1−p)/m) (Lemma 1(i)). */
export function expectedObserved(size: number, f: number, p: number, m: number): number {
  return size * (f * p + (1 - p) / m);
}
