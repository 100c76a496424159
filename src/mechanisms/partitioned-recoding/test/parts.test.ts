import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixedSizeSubsampleEpsilon } from '../../../common/dp/sampling-amplification.js';
import { independentParts } from '../../../common/recoding/partitioned.js';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { parseJob } from '../../../jobs/load-job.js';
import { assessJob } from '../../../jobs/run-job.js';
import { chiSquare, chiSquareCritical } from '../../../../test/stats.js';

describe('independent assignment of records to parts', () => {
  it('puts every row in exactly one part, uniformly (χ² goodness of fit, fixed seed)', () => {
    const parts = independentParts(new SeededTestRandomSource(11), 60_000, 4);
    const all = parts.flatMap((p) => [...p]).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 60_000 }, (_, i) => i));
    const sizes = parts.map((p) => p.length);
    expect(chiSquare(sizes, [15_000, 15_000, 15_000, 15_000])).toBeLessThan(chiSquareCritical(3));
    // Not fixed sizes: the sizes vary as a multinomial does.
    expect(new Set(sizes).size).toBeGreaterThan(1);
  });
});

describe('partitioned recoding states ε′ with the largest part', () => {
  it('uses ⌈n/P⌉/n: 10 records in 3 parts give β = 4/10, not 3/10', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-parts-'));
    writeFileSync(join(dir, 'd.csv'), ['age,sex', ...Array.from({ length: 10 }, (_, i) => `${20 + i},${i % 2 ? 'F' : 'M'}`)].join('\n') + '\n');
    const job = { version: 1, input: { path: 'd.csv' }, attributes: {}, method: { type: 'partitioned-recoding', parts: 3, model: { type: 'k-anonymity', k: 2 }, hierarchies: { age: { type: 'interval', widths: [10] } }, levels: { age: 2 } } };
    const report = assessJob(parseJob(job, dir), { random: new SeededTestRandomSource(2) });
    // Internal: with n it gives the input's size away.
    expect(report.method.internal?.['partShare']).toBe(0.4);
    expect(report.method.derived['partShare']).toBeUndefined();
    const one = report.anonymity!.epsilonPrime!.find((e) => e.epsilon === 1)!;
    expect(one.epsilonPrime).toBeCloseTo(fixedSizeSubsampleEpsilon(1, 0.4), 12);
  });
});
