import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { parseJob } from '../../../jobs/load-job.js';
import { runJob } from '../../../jobs/run-job.js';

async function publishedWarnings(beta: Record<string, unknown>, fakeValues: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'custos-beta-warn-'));
  const lines = ['age,diagnosis'];
  for (let i = 0; i < 120; i++) lines.push(`${20 + (i % 9)},${['flu', 'cold', 'HIV', 'asthma'][i % 4]}`);
  writeFileSync(join(dir, 'in.csv'), lines.join('\n') + '\n');
  const job = { version: 1, input: { path: 'in.csv' }, attributes: { diagnosis: 'sensitive' }, method: { type: 'beta-privacy', beta, fakeValues }, output: { dir: 'out', formats: ['csv'], report: ['json'] } };
  await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(2) });
  return (JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { warnings: string[] }).warnings.join('\n');
}

describe('β-privacy warnings a reader of the release needs', () => {
  it('the coefficient form with fake values says that the published β_v give away the exact frequencies the fakes blur', async () => {
    expect(await publishedWarnings({ coefficient: 3 }, 1)).toMatch(/exact frequency in the input/);
    expect(await publishedWarnings({ default: '0.5' }, 1)).not.toMatch(/exact frequency/);
    expect(await publishedWarnings({ coefficient: 3 }, 0)).toBe('');
  });
});
