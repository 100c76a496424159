import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupRows } from '../../../common/table/micro-groups.js';
import { UniformPerturber } from '../../../common/randomized-response/perturbation/randomize.js';
import { ScriptedCoinSource, SeededTestRandomSource } from '../../../common/random/source.js';
import { rationalFromNumber } from '../../../common/exact/rational.js';
import { releaseGroup, sampleCounts, scaleCopies } from '../../../common/randomized-response/algorithm1.js';
import { groupPasses, maxEpsilon, sizeThreshold, tailBound, type PrivacyParameters } from '../../../common/randomized-response/bounds.js';
import { reconstructionRelease } from '../../../common/randomized-response/release.js';
import { tableFromRows } from '../../../common/table/table.js';

describe('Algorithm 1 worked examples', () => {
  it('Example 5.15 sampling: (5, 15), s_g = 15, coins (0.5, 0.9) → (4, 11)', () => {
    expect(sampleCounts(new ScriptedCoinSource([0.5, 0.9]), [5, 15], 15)).toEqual([4, 11]);
  });

  it('Example 5.15 scaling: 15 trials back to 20 rows, b′ = 4/3', () => {
    // Coins below 1/3 give an extra copy: five of them.
    const coins = [0.1, 0.9, 0.9, 0.9, 0.2, 0.5, 0.3, 0.9, 0.9, 0.05, 0.9, 0.9, 0.9, 0.9, 0.0];
    const copies = scaleCopies(new ScriptedCoinSource(coins), 15, 20);
    expect([...copies].every((c) => c === 1 || c === 2)).toBe(true);
    expect(copies.reduce((a, b) => a + b, 0)).toBe(20);
  });

  it('non-integer s_g: counts (7, 2, 1), s_g = 4.6, coins (0.99, 0.1, 0.47) → (3, 1, 0)', () => {
    expect(sampleCounts(new ScriptedCoinSource([0.99, 0.1, 0.47]), [7, 2, 1], 4.6)).toEqual([3, 1, 0]);
  });
});

const paramsArb = fc.record({
  p: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
  m: fc.integer({ min: 2, max: 20 }),
  epsilonShare: fc.double({ min: 0.05, max: 1, noNaN: true }),
  delta: fc.double({ min: 0.05, max: 0.6, noNaN: true }),
  bound: fc.constantFrom<'simplified' | 'full'>('simplified', 'full'),
});

describe('guarantee: the independent trials of every micro group pass the (ε,δ) test', () => {
  it('strict: every group, sampled or not, passes exactly (property)', () => {
    fc.assert(
      fc.property(paramsArb, fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 2, maxLength: 20 }), fc.integer(), (pa, raw, seed) => {
        const counts = raw.slice(0, pa.m);
        if (!counts.some((c) => c > 0)) counts[0] = 1;
        const values = counts.map((_, i) => i).filter((i) => counts[i]! > 0);
        const present = values.map((i) => counts[i]!);
        const n = present.reduce((a, b) => a + b, 0);
        const epsilon = pa.epsilonShare * maxEpsilon(Math.max(...present) / n, pa.p, pa.m);
        const params: PrivacyParameters = { p: pa.p, m: pa.m, epsilon, delta: pa.delta, bound: pa.bound };
        const source = new SeededTestRandomSource(seed);
        const perturber = new UniformPerturber(rationalFromNumber(Number(pa.p.toFixed(6))), pa.m);
        const release = releaseGroup(source, { values, counts: present }, params, perturber, { strict: true });
        if (release.suppressed) return sizeThreshold(Math.max(...present) / n, params) < 1;
        expect(groupPasses(release.trials, release.trialMaxCount, params)).toBe(true);
        if (!release.sampled) expect(release.trials).toBe(n);
        expect(release.trialValues.every((v) => v < pa.m)).toBe(true);
        return true;
      }),
      { numRuns: 400 },
    );
  });

  it('whole table: Algorithm 1 leaves no violating group and publishes about |T| rows', () => {
    const source = new SeededTestRandomSource(2024);
    const rows: string[][] = [];
    // A skewed table with large homogeneous groups that fail under plain perturbation.
    for (let g = 0; g < 40; g++) {
      const size = 5 + g * 7;
      for (let i = 0; i < size; i++) rows.push([`q${g % 8}`, `r${g}`, i < size * 0.8 ? 'A' : `V${i % 5}`]);
    }
    const table = tableFromRows(['qa', 'qb', 'sa'], rows);
    const grouping = groupRows(table.columns.slice(0, 2), table.rowCount);
    const sa = table.columns[2]!;
    const values = Uint32Array.from(sa.codes, (c) => c - 1);
    const params: PrivacyParameters = { p: 0.5, m: sa.distinct, epsilon: 0.5, delta: 0.3, bound: 'simplified' };
    const result = reconstructionRelease(source, { grouping, values, retention: rationalFromNumber(0.5), params, options: { strict: true } });
    expect(result.stats.violatingAfter).toBe(0);
    expect(result.stats.sampledGroups).toBeGreaterThan(0);
    result.groupTrials.trials.forEach((trials, g) => expect(groupPasses(trials, result.groupTrials.trialMaxCount[g]!, params)).toBe(true));
    const published = result.rows.sourceRow.length;
    expect(Math.abs(published - table.rowCount) / table.rowCount).toBeLessThan(0.05);
    // Released rows keep their micro group's non-sensitive values.
    const groupSizes = new Map<number, number>();
    for (const r of result.rows.sourceRow) groupSizes.set(grouping.groupOfRow[r]!, (groupSizes.get(grouping.groupOfRow[r]!) ?? 0) + 1);
    expect(groupSizes.size).toBe(grouping.groupCount);
  });

  it('paper-faithful mode reports the groups that pass only modulo coin flips', () => {
    const source = new SeededTestRandomSource(77);
    const rows: string[][] = [];
    // f_max = 0.8: s_g ≈ 28 < 200, so every group is sampled and the coins can push trials past s_g.
    for (let g = 0; g < 60; g++) for (let i = 0; i < 200; i++) rows.push([`g${g}`, i % 10 < 8 ? 'v0' : `v${1 + (i % 6)}`]);
    const table = tableFromRows(['q', 'sa'], rows);
    const grouping = groupRows([table.columns[0]!], table.rowCount);
    const values = Uint32Array.from(table.columns[1]!.codes, (c) => c - 1);
    const params: PrivacyParameters = { p: 0.5, m: 7, epsilon: 0.3, delta: 0.3, bound: 'full' };
    const result = reconstructionRelease(source, { grouping, values, retention: rationalFromNumber(0.5), params, options: { strict: false } });
    // Recount with the bounds themselves (min{U1, L1} ≥ δ at f_max), not the s_g threshold the engine uses.
    let failing = 0;
    result.groupTrials.trials.forEach((trials, g) => {
      if (trials === 0) return;
      const { upper, lower } = tailBound(trials, result.groupTrials.trialMaxCount[g]! / trials, params);
      if (Math.min(upper, lower) < params.delta) failing++;
    });
    // The mode exists for these groups: some trials do exceed s_g, and the engine counts exactly those.
    expect(failing).toBeGreaterThan(0);
    expect(result.stats.violatingAfter).toBe(failing);
    expect(result.stats.trimmedRows).toBe(0);
  });
});
