/**
 * The δ of sampling + strongly-safe k-anonymization (Li, Qardaji, Su, “On sampling, anonymization,
 * and differential privacy”, 2012, Theorem 5), the inverse problems, and the subsampling bounds
 * (Poisson amplification; the fixed-size parts of Clifton et al. 2020, Theorem 2). Binomial tails
 * are summed in log space.
 */

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1]! + Math.log(i));
  return logFactorials[n]!;
}

function logChoose(n: number, j: number): number {
  return logFactorial(n) - logFactorial(j) - logFactorial(n - j);
}

/** Pr[Bin(n, β) ≥ from], summed outward from the largest term in log space. */
export function binomialUpperTail(n: number, beta: number, from: number): number {
  if (from <= 0) return 1;
  if (from > n) return 0;
  const lb = Math.log(beta);
  const lq = Math.log1p(-beta);
  const logTerm = (j: number): number => logChoose(n, j) + j * lb + (n - j) * lq;
  const mode = Math.floor((n + 1) * beta);
  const start = Math.max(from, Math.min(n, mode));
  const peak = logTerm(start);
  let sum = 0;
  for (let j = start; j <= n; j++) {
    const t = Math.exp(logTerm(j) - peak);
    sum += t;
    if (t < 1e-18 * sum) break;
  }
  for (let j = start - 1; j >= from; j--) {
    const t = Math.exp(logTerm(j) - peak);
    sum += t;
    if (t < 1e-18 * sum) break;
  }
  return Math.exp(peak + Math.log(sum));
}

export function gammaOf(beta: number, epsilon: number): number {
  return 1 - (1 - beta) * Math.exp(-epsilon);
}

/** The smallest ε the theorem allows for a sampling rate β: −ln(1 − β). */
export function minimumEpsilon(beta: number): number {
  return -Math.log1p(-beta);
}

export interface DeltaResult {
  readonly delta: number;
  /** The n at which a_n is largest. */
  readonly argmax: number;
  readonly nMin: number;
  readonly gamma: number;
}

/** a_n = Pr[Bin(n,β) > γn], with the strict inequality and a conservative rounding guard. */
export function tailTerm(n: number, beta: number, gamma: number): number {
  const x = gamma * n;
  const nearest = Math.round(x);
  const floor = Math.abs(x - nearest) <= 1e-9 * n ? nearest - 1 : Math.floor(x);
  return binomialUpperTail(n, beta, floor + 1);
}

/** δ = d(k, β, ε) = max over n ≥ ⌈k/γ − 1⌉ of a_n, scanning until the Chernoff bound c_n falls below the maximum. */
export function deltaFor(k: number, beta: number, epsilon: number): DeltaResult {
  if (!Number.isInteger(k) || k < 1) throw new RangeError('k must be a positive integer');
  if (!(beta > 0 && beta < 1)) throw new RangeError('the sampling rate β must lie strictly between 0 and 1');
  if (epsilon < minimumEpsilon(beta) - 1e-15) {
    throw new RangeError(`ε must be at least −ln(1−β) = ${minimumEpsilon(beta).toPrecision(6)} for β = ${beta}`);
  }
  const gamma = gammaOf(beta, epsilon);
  const nMin = Math.max(1, Math.ceil(k / gamma - 1));
  const kl = gamma * Math.log(gamma / beta) - (gamma - beta);
  let best = 0;
  let argmax = nMin;
  for (let n = nMin; n < 1e8; n++) {
    const a = tailTerm(n, beta, gamma);
    if (a > best) {
      best = a;
      argmax = n;
    }
    if (Math.exp(-n * kl) <= best) break;
  }
  return { delta: best, argmax, nMin, gamma };
}

/** Smallest k with d(k, β, ε) ≤ δ: exponential search, then bisection (d does not increase with k). */
export function smallestK(beta: number, epsilon: number, delta: number, limit = 1_000_000): number | null {
  const ok = (k: number): boolean => deltaFor(k, beta, epsilon).delta <= delta;
  let hi = 2;
  while (!ok(hi)) {
    hi *= 2;
    if (hi > limit) return null;
  }
  let lo = Math.max(1, hi / 2);
  if (ok(lo)) return lo === 1 && ok(1) ? 1 : lo;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Largest β in (0, 1 − e^{−ε}] with d(k, β, ε) ≤ δ, by bisection and then verified. */
export function largestBeta(k: number, epsilon: number, delta: number): number | null {
  const ceiling = 1 - Math.exp(-epsilon);
  const ok = (b: number): boolean => b > 0 && b < 1 && deltaFor(k, b, epsilon).delta <= delta;
  const top = Math.min(ceiling, 1 - 1e-12);
  if (ok(top)) return top;
  let lo = 0;
  let hi = top;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo > 0 && ok(lo) ? lo : null;
}

/** Amplification by Poisson sampling: ε2 = ln(1 + β(e^{ε1} − 1)). */
export function amplifiedEpsilon(epsilon: number, beta: number): number {
  return Math.log1p(beta * Math.expm1(epsilon));
}

/** Paper 000 Theorem 2: fixed-size random subset of n′ = βn rows, bounded neighbours. */
export function fixedSizeSubsampleEpsilon(epsilon: number, beta: number): number {
  return Math.log((Math.exp(epsilon) * beta + 1 - beta) / (1 - beta));
}
