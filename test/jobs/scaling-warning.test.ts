import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { parseJob } from '../../src/jobs/load-job.js';
import { runJob } from '../../src/jobs/run-job.js';

describe('reconstruction privacy: a release longer than the input', () => {
  it('is explained exactly when it happens (scaling rounds copies with a coin)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-scaling-'));
    const lines = ['sex,diagnosis'];
    // Two large micro groups: both are sampled down to s_g and scaled back.
    for (let i = 0; i < 400; i++) lines.push(`${i % 2 ? 'F' : 'M'},${['flu', 'cold', 'HIV'][i % 3]}`);
    writeFileSync(join(dir, 'in.csv'), lines.join('\n') + '\n');
    let longer = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const job = { version: 1, input: { path: 'in.csv' }, attributes: { diagnosis: 'sensitive' }, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, strict: false, domains: { diagnosis: 'from-data' } }, output: { dir: `out-${seed}`, formats: ['csv'], report: ['json'] } };
      const result = await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(seed) });
      const rows = result.report.output!.rows;
      const explained = result.report.warnings.some((w) => /more than the input's 400: each sampled micro group is scaled back/.test(w));
      expect(explained, `seed ${seed}: ${rows} rows`).toBe(rows > 400);
      if (rows > 400) longer++;
    }
    expect(longer).toBeGreaterThan(0);
  });
});
