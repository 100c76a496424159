/**
 * The filtering attack: a non-causal FIR Wiener smoother of
 * half-width K that an adversary who knows the signal's and the noise's
 * autocovariance runs on a released series.
 */
export interface FilterResult {
  readonly mseRaw: number;
  readonly mseFiltered: number;
  readonly mseShrink: number;
  readonly noiseRemoval: number;
  readonly gain: number;
  readonly weights: Float64Array;
}

function solve(a: Float64Array[], b: Float64Array): Float64Array {
  const n = b.length;
  const m = a.map((row, i) => Float64Array.from([...row, b[i]!]));
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return Float64Array.from({ length: n }, (_, i) => m[i]![n]! / m[i]![i]!);
}

/** Wiener weights h for half-width K from autocovariances r_x(τ) and r_n(τ). */
export function wienerWeights(rx: (lag: number) => number, rn: (lag: number) => number, k: number): Float64Array {
  const size = 2 * k + 1;
  const a = Array.from({ length: size }, (_, i) => Float64Array.from({ length: size }, (_, j) => rx(Math.abs(i - j)) + rn(Math.abs(i - j))));
  const r = Float64Array.from({ length: size }, (_, i) => rx(Math.abs(i - k)));
  return solve(a, r);
}

/** The theoretical MSE of the smoother: r_x(0) − hᵀ r. */
export function wienerMse(rx: (lag: number) => number, h: Float64Array): number {
  const k = (h.length - 1) / 2;
  let dot = 0;
  for (let i = 0; i < h.length; i++) dot += h[i]! * rx(Math.abs(i - k));
  return rx(0) - dot;
}

/** Runs the attack on a released series (interior points scored) and reports the gain G = MSE_shrink / MSE_filtered. */
export function filteringAttack(truth: readonly number[], released: readonly number[], rx: (lag: number) => number, rn: (lag: number) => number, k: number): FilterResult {
  const h = wienerWeights(rx, rn, k);
  const mean = truth.reduce((a, b) => a + b, 0) / Math.max(1, truth.length);
  let raw = 0;
  let filtered = 0;
  let scored = 0;
  for (let t = k; t < released.length - k; t++) {
    let estimate = mean;
    for (let j = -k; j <= k; j++) estimate += h[j + k]! * (released[t + j]! - mean);
    filtered += (estimate - truth[t]!) ** 2;
    raw += (released[t]! - truth[t]!) ** 2;
    scored++;
  }
  const mseRaw = scored ? raw / scored : Number.NaN;
  const mseFiltered = scored ? filtered / scored : Number.NaN;
  const mseShrink = (rx(0) * rn(0)) / (rx(0) + rn(0));
  return { mseRaw, mseFiltered, mseShrink, noiseRemoval: 1 - mseFiltered / mseRaw, gain: mseShrink / mseFiltered, weights: h };
}

/** Sample autocovariance of a series at a lag (the adversary's worst-case knowledge of the signal). */
export function autocovariance(series: readonly number[]): (lag: number) => number {
  const n = series.length;
  const mean = series.reduce((a, b) => a + b, 0) / Math.max(1, n);
  const cache = new Map<number, number>();
  return (lag) => {
    let v = cache.get(lag);
    if (v === undefined) {
      let sum = 0;
      for (let t = 0; t + lag < n; t++) sum += (series[t]! - mean) * (series[t + lag]! - mean);
      v = n > lag ? sum / n : 0;
      cache.set(lag, v);
    }
    return v;
  };
}
