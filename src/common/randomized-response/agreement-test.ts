import { discreteCumulant, discreteMean, logChernoffTail, type DiscreteClass } from '../stats/chernoff.js';
import { LOG_HALF_ALPHA } from '../stats/significance.js';

/**
 * The test of a randomized-response release against the original (verify --original).
 *
 * Every record of a group published whole is released as its true value with probability p and
 * otherwise as a value drawn uniformly from the m values of the domain (its own included): it
 * shows its true value with probability p + (1−p)/m, each other value with (1−p)/m, independently
 * of every other record. The release is shuffled, so which released row is which record is not
 * known; what is known per micro group g is the released count O_{g,x} of each value x and the
 * true count n_{g,x}. The statistic
 *
 *   T = Σ_g Σ_x f_{g,x}·O_{g,x},   f_{g,x} = n_{g,x}/|g|,
 *
 * is a sum over records of f_{g,y} (y the record's released value): independent terms in [0, 1].
 * Where every record of a group has its own tuple (|g| = 1), or a group holds one value, T counts
 * exactly the records released as their true value (the agreement, binomial); in a mixed group a
 * record that keeps its value adds the share of that value. T's law is known exactly (a sum of
 * independent finite variables); its tails are bounded by Chernoff's bound on the exact cumulant
 * function (chernoff.ts), which is provably conservative: a correct release fails with
 * probability at most α/2 on each side.
 */
export interface AgreementGroup {
  /** The group's true counts, by domain value. */
  readonly truth: ReadonlyMap<string, number>;
  /** The group's released counts, by released value. */
  readonly released: ReadonlyMap<string, number>;
}

export interface AgreementTest {
  readonly groups: number;
  readonly records: number;
  readonly statistic: number;
  readonly expected: number;
  /** ln of the bound on Pr[T ≥ observed] and Pr[T ≤ observed] for a correct release. */
  readonly logUpper: number;
  readonly logLower: number;
  readonly ok: boolean;
}

/** The law of one record's term: values f_x of the group (and 0 for values the group lacks), their probabilities. */
function recordClass(shares: readonly number[], own: number, p: number, m: number): { values: number[]; probs: number[] } {
  const r = (1 - p) / m;
  const values = [...shares];
  const probs = shares.map((_, i) => r + (i === own ? p : 0));
  if (m > shares.length) {
    values.push(0);
    probs.push(r * (m - shares.length));
  }
  return { values, probs };
}

/** T, its mean, and the two Chernoff tail bounds for a correct release at retention p over m values. */
export function agreementTest(groups: readonly AgreementGroup[], p: number, m: number): AgreementTest {
  // Records whose terms share a law are one class: every singleton group's record is the same Bernoulli.
  const classes = new Map<string, DiscreteClass>();
  let statistic = 0;
  let records = 0;
  for (const g of groups) {
    const size = [...g.truth.values()].reduce((a, b) => a + b, 0);
    if (size === 0) continue;
    const entries = [...g.truth].sort((a, b) => b[1] - a[1]);
    const shares = entries.map(([, n]) => n / size);
    entries.forEach(([, n], own) => {
      const key = `${shares.join(',')}|${own}`;
      const existing = classes.get(key);
      if (existing) classes.set(key, { ...existing, count: existing.count + n });
      else classes.set(key, { count: n, ...recordClass(shares, own, p, m) });
    });
    for (const [value, count] of g.released) statistic += ((g.truth.get(value) ?? 0) / size) * count;
    records += size;
  }
  const list = [...classes.values()];
  const cumulant = discreteCumulant(list);
  const logUpper = logChernoffTail(cumulant, statistic, 'upper');
  const logLower = logChernoffTail(cumulant, statistic, 'lower');
  return { groups: groups.length, records, statistic, expected: discreteMean(list), logUpper, logLower, ok: logUpper >= LOG_HALF_ALPHA && logLower >= LOG_HALF_ALPHA };
}
