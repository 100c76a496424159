import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { parseJob } from '../../../jobs/load-job.js';
import { runJob } from '../../../jobs/run-job.js';
import { weakReleaseWarnings } from '../statement.js';

describe('a guarantee that holds, on a release that is weak or of little use', () => {
  it('is said plainly: δ above 1/n, few records kept, poor count queries', () => {
    // The reviewer's case: the default k = 5 at sampling 0.1 on Adult.
    const weak = weakReleaseWarnings({ records: 30_162, released: 1_045, delta: 1.8e-4, queryError: 1.04 });
    expect(weak).toHaveLength(3);
    expect(weak[0]).toMatch(/δ = 1\.80e-4 is above 1\/n = 3\.32e-5 for these 30,162 records/);
    expect(weak[1]).toMatch(/keeps 1,045 of 30,162 records \(3\.5%\)/);
    expect(weak[2]).toMatch(/off by 104% on average/);
    expect(weakReleaseWarnings({ records: 30_162, released: 20_000, delta: 1e-7, queryError: 0.1 })).toEqual([]);
  });

  it('reaches the internal report, not the published one (it states the input\'s size)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-weak-'));
    const lines = ['age,status'];
    for (let i = 0; i < 400; i++) lines.push(`${20 + (i % 50)},${i % 2 ? 'a' : 'b'}`);
    writeFileSync(join(dir, 'in.csv'), lines.join('\n') + '\n');
    const job = { version: 1, input: { path: 'in.csv' }, attributes: { status: 'insensitive' }, method: { type: 'safe-k-anonymity', k: 2, sampling: 0.5 }, output: { dir: 'out', formats: ['csv'], report: ['json'] } };
    const result = await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(6) });
    expect(result.report.warnings.join('\n')).toMatch(/is above 1\/n/);
    expect(readFileSync(join(dir, 'out', 'report.json'), 'utf8')).not.toMatch(/above 1\/n|keeps \d/);
  });
});
