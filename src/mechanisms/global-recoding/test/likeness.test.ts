import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableFromRows } from '../../../common/table/table.js';
import { ClassBuilder } from '../../../common/recoding/search/class-table.js';
import { classMeets, exactlyMonotoneWithGeneralization, modelContext, monotoneWithSuppression, type PrivacyModel } from '../../../common/recoding/search/models.js';
import { quasiColumn, sensitiveColumn } from '../../../common/recoding/search/recoding-input.js';
import { bruteForceRecoding, optimalRecoding, type SearchOptions } from '../../../common/recoding/search/search.js';
import { caseArbWith } from './random-cases.js';
import { refClasses, refSuppress } from './reference.js';

const SEED = 20261128;

/** Whether each class (keyed by column c) meets the model, the input being every row. */
function verdicts(rows: readonly (readonly [string, string])[], model: PrivacyModel): Map<string, boolean> {
  const table = tableFromRows(['c', 's'], rows.map(([c, s]) => [c, s]), []);
  const q = quasiColumn(table.columns[0]!, undefined);
  const s = sensitiveColumn(table.columns[1]!);
  const classes = new ClassBuilder([q], s, table.rowCount).fromRecords([0]);
  const ctx = modelContext(s, table.rowCount);
  const codes = classes.column(0);
  const out = new Map<string, boolean>();
  for (let c = 0; c < classes.count; c++) out.set(q.labels[0]![codes[c]!]!, classMeets(model, classes, c, ctx));
  return out;
}

const likenessArb: fc.Arbitrary<PrivacyModel> = fc.oneof(
  fc.record({ type: fc.constant('beta-likeness' as const), beta: fc.constantFrom(0.25, 0.5, 1, 2), variant: fc.constantFrom('basic' as const, 'enhanced' as const) }),
  fc.record({ type: fc.constant('delta-disclosure' as const), delta: fc.constantFrom(0.4, 0.7, 1, 1.5) }),
  fc.record({ type: fc.constant('k-anonymity' as const), k: fc.integer({ min: 2, max: 4 }) }),
);

describe('β-likeness and δ-disclosure privacy', () => {
  it('a gain of exactly β meets β-likeness, where the doubles ARX divides in give 0.5000000000000001 > 0.5', () => {
    // Input a, b, b: p_a = 1/3. Class x = {a, b}: q_a = 1/2, gain (1/2 − 1/3)/(1/3) = 1/2 exactly.
    const rows = [['x', 'a'], ['x', 'b'], ['y', 'b']] as const;
    expect((1 / 2 - 1 / 3) / (1 / 3)).toBeGreaterThan(0.5);
    expect(verdicts(rows, { type: 'beta-likeness', beta: 0.5, variant: 'basic' }).get('x')).toBe(true);
    expect(verdicts(rows, { type: 'beta-likeness', beta: 0.5, variant: 'enhanced' }).get('x')).toBe(true);
    // Just below the gain: fails.
    expect(verdicts(rows, { type: 'beta-likeness', beta: 0.499999, variant: 'basic' }).get('x')).toBe(false);
    // Class y = {b}: q_b = 1 against p_b = 2/3, gain 1/2 too.
    expect(verdicts(rows, { type: 'beta-likeness', beta: 0.5, variant: 'basic' }).get('y')).toBe(true);
  });

  it('the enhanced bound min(β, −ln p) is stricter than β for frequent values', () => {
    // p_b = 3/4: −ln(3/4) ≈ 0.2877. Class y = {b, b}: q_b = 1, gain 1/3 ≤ β = 1 but > 0.2877.
    const rows = [['x', 'a'], ['x', 'b'], ['y', 'b'], ['y', 'b']] as const;
    expect(verdicts(rows, { type: 'beta-likeness', beta: 1, variant: 'basic' }).get('y')).toBe(true);
    expect(verdicts(rows, { type: 'beta-likeness', beta: 1, variant: 'enhanced' }).get('y')).toBe(false);
    // Class x: q_a = 1/2 against p_a = 1/4: gain 1 ≤ min(1, ln 4 ≈ 1.386); q_b = 1/2 < 3/4 is not bounded.
    expect(verdicts(rows, { type: 'beta-likeness', beta: 1, variant: 'enhanced' }).get('x')).toBe(true);
  });

  it('δ-disclosure bounds |ln(q/p)| strictly for the values a class holds, and only those', () => {
    // p_a = p_b = 1/2. Class x = {a, a, b}: ln(4/3) ≈ 0.2877 and ln(2/3) ≈ −0.405; class y = {b}: ln 2 ≈ 0.693, a absent.
    const rows = [['x', 'a'], ['x', 'a'], ['x', 'b'], ['y', 'b']] as const;
    expect(verdicts(rows, { type: 'delta-disclosure', delta: 0.41 }).get('x')).toBe(true);
    expect(verdicts(rows, { type: 'delta-disclosure', delta: 0.405 }).get('x')).toBe(false);
    expect(verdicts(rows, { type: 'delta-disclosure', delta: 0.6931471805599453 }).get('y')).toBe(false);
    // ln 2 = 0.69314718055994530941…: δ written 0.6931471805599453 is below it, …54 above (decided exactly, not by Math.log's double).
    expect(verdicts(rows, { type: 'delta-disclosure', delta: 0.6931471805599454 }).get('y')).toBe(true);
  });

  it('δ-disclosure is not monotone with generalization: merging a class that lacks a value can push it below e^−δ', () => {
    // p_a = p_b = 1/2. x = {a, b} meets δ = 0.5 (ratios 1); w = {b, b} lacks a; y = {a, a, a, b} balances the input.
    const rows = [['x', 'a'], ['x', 'b'], ['w', 'b'], ['w', 'b'], ['y', 'a'], ['y', 'a'], ['y', 'a'], ['y', 'b']] as const;
    const model: PrivacyModel = { type: 'delta-disclosure', delta: 0.5 };
    // w holds only b: q_b = 1 against 1/2, ln 2 > 0.5, so w fails; x meets (q = p).
    expect(verdicts(rows, model).get('x')).toBe(true);
    const merged = rows.map(([c, s]) => [c === 'w' ? 'x' : c, s] as const);
    // x ∪ w = {a, b, b, b}: q_a = 1/4, ln(1/2) = −0.693: fails though x met it.
    expect(verdicts(merged, model).get('x')).toBe(false);
    expect(exactlyMonotoneWithGeneralization(model)).toBe(false);
    expect(monotoneWithSuppression(model)).toBe(false);
    expect(exactlyMonotoneWithGeneralization({ type: 'beta-likeness', beta: 1, variant: 'enhanced' })).toBe(true);
    expect(monotoneWithSuppression({ type: 'beta-likeness', beta: 1, variant: 'enhanced' })).toBe(false);
  });

  it('every node equals the reference written from the definitions, and every search finds the brute-force optimum (property)', () => {
    fc.assert(
      fc.property(caseArbWith(likenessArb), (c) => {
        const brute = bruteForceRecoding(c.input);
        const n = c.input.rowCount;
        for (const result of brute.all) {
          const suppressed = refSuppress(c.ref, refClasses(c.ref, result.node));
          expect(result.suppressedRecords).toBe(suppressed);
          expect(result.satisfies).toBe(suppressed <= Math.floor(c.input.suppressionLimit * n));
        }
        // β-likeness with k-anonymity and nothing to suppress: the top-down search's up-set applies.
        const upSet = Math.floor(c.input.suppressionLimit * n) === 0 && c.input.models.every(exactlyMonotoneWithGeneralization);
        const strategies: SearchOptions[] = [{ prune: true, strategy: 'bottom-up' }, { prune: true }, { prune: true, packed: false, strategy: 'bottom-up' }, ...(upSet ? [{ prune: true, strategy: 'top-down' as const }] : [])];
        for (const options of strategies) {
          const found = optimalRecoding(c.input, options);
          expect(found.optimum?.node).toEqual(brute.optimum?.node);
          expect(found.optimum?.suppressedRecords).toBe(brute.optimum?.suppressedRecords);
          if (found.satisfyingExact) expect(found.satisfying).toBe(brute.satisfying);
          else expect(found.satisfying).toBeLessThanOrEqual(brute.satisfying);
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});

describe('entropy ℓ-diversity decided exactly at the boundary (n^n ≥ ℓ^n·Π f^f)', () => {
  it('nine values once each meet entropy 9-diversity, where the doubles give 3.169925001442312 < log₂ 9 = 3.1699250014423126', () => {
    const rows = Array.from({ length: 9 }, (_, v) => ['x', `s${v}`] as const);
    expect(verdicts(rows, { type: 'entropy-l-diversity', l: 9 }).get('x')).toBe(true);
    // Twice each, eighteen records: the same entropy, met too.
    expect(verdicts([...rows, ...rows], { type: 'entropy-l-diversity', l: 9 }).get('x')).toBe(true);
    // One value once more: entropy below log₂ 9, and just so (3.1699… − 0.0036).
    expect(verdicts([...rows, ['x', 's0']], { type: 'entropy-l-diversity', l: 9 }).get('x')).toBe(false);
  });

  it('agrees with the integer decision on random classes (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 2, maxLength: 8 }), fc.integer({ min: 2, max: 8 }), (counts, l) => {
        const rows = counts.flatMap((f, v) => Array.from({ length: f }, () => ['x', `s${v}`] as const));
        const n = BigInt(rows.length);
        const product = counts.reduce((p, f) => p * BigInt(f) ** BigInt(f), 1n);
        const expected = counts.length >= l && n ** n >= BigInt(l) ** n * product;
        expect(verdicts(rows, { type: 'entropy-l-diversity', l }).get('x')).toBe(expected);
      }),
      { seed: SEED + 1, numRuns: 500 },
    );
  });
});

describe('t-closeness decided exactly at the boundary (integers over n·N)', () => {
  it('a class at equal distance exactly 0.1 meets 0.1-closeness, where the doubles give 0.10000000000000003', () => {
    // Input: a 3 of 10. Class x = {a, b, b, b, b}: ½(|0.3 − 0.2| + |0.7 − 0.8|) = 0.1; class y = {a, a, b, b, b}: 0.1 too.
    const rows = [...['a', 'b', 'b', 'b', 'b'].map((s) => ['x', s] as const), ...['a', 'a', 'b', 'b', 'b'].map((s) => ['y', s] as const)];
    expect(0.5 * (Math.abs(3 / 10 - 1 / 5) + Math.abs(7 / 10 - 4 / 5))).toBeGreaterThan(0.1);
    const equal = verdicts(rows, { type: 't-closeness', t: 0.1, distance: 'equal' });
    expect([equal.get('x'), equal.get('y')]).toEqual([true, true]);
    expect(verdicts(rows, { type: 't-closeness', t: 0.099999, distance: 'equal' }).get('x')).toBe(false);
    // Two values: the ordered distance is |q_a − p_a| / 1, the same 0.1.
    expect(verdicts(rows, { type: 't-closeness', t: 0.1, distance: 'ordered' }).get('x')).toBe(true);
  });
});
