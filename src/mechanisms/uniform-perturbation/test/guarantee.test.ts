import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rationalFromNumber, toNumber } from '../../../common/exact/rational.js';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { maxRetentionForRho, posterior } from '../../../common/randomized-response/perturbation/retention.js';
import { parseJob } from '../../../jobs/load-job.js';
import { runJob } from '../../../jobs/run-job.js';
import { verifyRelease } from '../../../jobs/verify/verify-release.js';

/** A prior over m values in which value x has probability at most ρ1 (the rest spread at random). */
const priorAndTarget = fc
  .record({ m: fc.integer({ min: 2, max: 8 }), rho1: fc.double({ min: 0.01, max: 0.6, noNaN: true }), gap: fc.double({ min: 0.05, max: 0.9, noNaN: true }), weights: fc.array(fc.double({ min: 0.01, max: 1, noNaN: true }), { minLength: 8, maxLength: 8 }), share: fc.double({ min: 0, max: 1, noNaN: true }) })
  .map(({ m, rho1: raw, gap, weights, share }) => {
    // Short decimals, as a person types them (the job reads them as the exact decimals they write).
    const rho1 = Number(raw.toPrecision(6));
    const rho2 = Number(Math.min(0.99, rho1 + gap * (1 - rho1)).toPrecision(6));
    const px = Math.min(rho1, rho1 * share);
    const rest = weights.slice(0, m - 1);
    const total = rest.reduce((a, b) => a + b, 0);
    return { m, rho1, rho2, prior: [px, ...rest.map((w) => ((1 - px) * w) / total)] };
  })
  .filter(({ rho1, rho2 }) => rho1 < rho2);

describe('ρ1–ρ2 privacy of uniform perturbation (Evfimievski, Gehrke, Srikant 2003)', () => {
  it('at the largest retention for (ρ1, ρ2), no prior of at most ρ1 reaches a posterior above ρ2, whatever is released', () => {
    fc.assert(
      fc.property(priorAndTarget, ({ m, rho1, rho2, prior }) => {
        const p = toNumber(maxRetentionForRho(rationalFromNumber(rho1), rationalFromNumber(rho2), m).retention);
        for (let y = 0; y < m; y++) expect(posterior(prior, p, 0, y)).toBeLessThanOrEqual(rho2 * (1 + 1e-12));
      }),
      { numRuns: 300, seed: 11 },
    );
  });

  it('a retention above it lets the worst prior (exactly ρ1) reach more than ρ2 when its own value is released', () => {
    fc.assert(
      fc.property(priorAndTarget, ({ m, rho1, rho2 }) => {
        const p = toNumber(maxRetentionForRho(rationalFromNumber(rho1), rationalFromNumber(rho2), m).retention);
        const above = p + (1 - p) / 10;
        const worst = [rho1, ...new Array<number>(m - 1).fill((1 - rho1) / (m - 1))];
        expect(posterior(worst, above, 0, 0)).toBeGreaterThan(rho2);
        // At the bound itself the worst prior lands on ρ2 exactly: the bound is tight.
        expect(posterior(worst, p, 0, 0)).toBeCloseTo(rho2, 9);
      }),
      { numRuns: 200, seed: 12 },
    );
  });
});

describe('a release with several sensitive attributes', () => {
  it('perturbs them all in one file, and verify accepts it (every sensitive column is released perturbed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-up-'));
    const input = join(dir, 'input.csv');
    const lines = ['age,sex,diagnosis,income'];
    for (let i = 0; i < 120; i++) lines.push(`${20 + (i % 5)},${i % 2 ? 'F' : 'M'},${['flu', 'cold', 'HIV'][i % 3]},${['low', 'mid', 'high'][(i * 7) % 3]}`);
    writeFileSync(input, lines.join('\n') + '\n');
    const job = { version: 1, input: { path: input }, attributes: { diagnosis: 'sensitive', income: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data', income: 'from-data' } }, output: { dir: join(dir, 'release'), formats: ['csv'], report: ['json'] } };
    const result = await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(9) });
    expect(result.report.risk.bySensitive?.map((s) => s.column)).toEqual(['diagnosis', 'income']);
    const verified = await verifyRelease(join(dir, 'release'), { original: input, acceptTestRandomness: true });
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
  });
});
