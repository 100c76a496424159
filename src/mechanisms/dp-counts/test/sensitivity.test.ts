import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CountQuerySpec } from '../count-queries.js';
import { maxMatches } from '../node/sensitivity.js';

/** Every record over columns 0..2 with values 1..6 (value 6 named by no query): the most queries one matches. */
function bruteForce(queries: readonly CountQuerySpec[]): number {
  let best = 0;
  for (let a = 1; a <= 6; a++) for (let b = 1; b <= 6; b++) for (let c = 1; c <= 6; c++) {
    const record = [a, b, c];
    best = Math.max(best, queries.filter((q) => [...q.where].every(([col, v]) => record[col] === v)).length);
  }
  return Math.max(1, best);
}

describe('sensitivity of explicit count queries', () => {
  it('equals the most queries any possible record matches, values outside the data included (property)', () => {
    const query = fc.dictionary(fc.constantFrom('0', '1', '2'), fc.integer({ min: 1, max: 5 }), { minKeys: 1, maxKeys: 3 }).map((w): CountQuerySpec => ({ where: new Map(Object.entries(w).map(([c, v]) => [Number(c), v])) }));
    fc.assert(fc.property(fc.array(query, { minLength: 1, maxLength: 12 }), (queries) => {
        expect(maxMatches(queries)).toBe(bruteForce(queries));
      }),
      { numRuns: 200 },
    );
  });

  it('counts disjoint cells of one column once and crossing queries together', () => {
    const q = (where: [number, number][]): CountQuerySpec => ({ where: new Map(where) });
    expect(maxMatches([q([[0, 1]]), q([[0, 2]]), q([[1, 3]])])).toBe(2);
    expect(maxMatches([q([[0, 1]]), q([[0, 1], [1, 3]]), q([[1, 3]])])).toBe(3);
  });
});

describe('ε_eff of correlated noise does not depend on the data', () => {
  it('a table and the same table plus one record publish the same ε_eff', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { parseJob } = await import('../../../jobs/load-job.js');
    const { assessJob } = await import('../../../jobs/run-job.js');
    const { SeededTestRandomSource } = await import('../../../common/random/source.js');
    const dir = mkdtempSync(join(tmpdir(), 'custos-eff-'));
    const regions = ['north', 'south', 'east', 'west'];
    const sexes = ['F', 'M'];
    // 40 records of the combination whose change the AR(1) noise hides best (ε_eff 0.707 if only those
    // counted), then one record of a combination it hides worse (0.842): the old maximum over the
    // records present moved with that one record.
    const rows = Array.from({ length: 40 }, (_, i) => `west,F,${i % 3 ? 'a' : 'b'}`);
    writeFileSync(join(dir, 'small.csv'), ['region,sex,other', ...rows].join('\n') + '\n');
    writeFileSync(join(dir, 'plus-one.csv'), ['region,sex,other', ...rows, 'south,M,a'].join('\n') + '\n');
    const epsilonEffective = (file: string): number => {
      const job = {
        version: 1, input: { path: file }, attributes: {},
        method: { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['region', 'sex'], noise: 'generalized-laplace', correlation: { model: 'ar1', rho: 0.6 }, domains: { region: regions, sex: sexes } },
      };
      const report = assessJob(parseJob(job, dir), { random: new SeededTestRandomSource(1) });
      return report.dp!.epsilonEffective!;
    };
    const small = epsilonEffective('small.csv');
    expect(small).toBeGreaterThan(0);
    expect(epsilonEffective('plus-one.csv')).toBe(small);
  });
});

describe('ε_eff with parts covers a record in any part', () => {
  it('one query in 3 parts under one AR(1) chain: the middle part, the chain\'s interior, sets ε_eff', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { parseJob } = await import('../../../jobs/load-job.js');
    const { assessJob } = await import('../../../jobs/run-job.js');
    const { SeededTestRandomSource } = await import('../../../common/random/source.js');
    const dir = mkdtempSync(join(tmpdir(), 'custos-eff-parts-'));
    writeFileSync(join(dir, 'data.csv'), ['region', ...Array.from({ length: 30 }, (_, i) => (i % 2 ? 'west' : 'east'))].join('\n') + '\n');
    const rho = 0.6;
    const job = {
      version: 1, input: { path: 'data.csv' }, attributes: {},
      method: { type: 'dp-counts', epsilon: 1, queries: [{ where: { region: 'west' } }], parts: 3, noise: 'generalized-laplace', correlation: { model: 'ar1', rho } },
    };
    const report = assessJob(parseJob(job, dir), { random: new SeededTestRandomSource(2) });
    // Δ = 1 and b = Δ/ε = 1. The AR(1) precision matrix has (1 + ρ²)/(1 − ρ²) on its interior diagonal
    // and 1/(1 − ρ²) at the chain's ends: a record in the middle part moves only an interior answer.
    expect(report.dp!.epsilonEffective!).toBeCloseTo(Math.sqrt((1 + rho * rho) / (1 - rho * rho)), 12);
  });
});

