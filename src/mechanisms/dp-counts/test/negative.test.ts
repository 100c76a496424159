import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { parseJob } from '../../../jobs/load-job.js';
import { runJob } from '../../../jobs/run-job.js';

describe('negative noisy counts', () => {
  it('are never published without saying why: counted exactly on the released answers, explained in both reports', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-negative-'));
    const lines = ['region,sex'];
    // Small cells and a small ε: the noise carries some counts below 0.
    for (let i = 0; i < 30; i++) lines.push(`${['north', 'south', 'east', 'west', 'centre'][i % 5]},${i % 3 ? 'F' : 'M'}`);
    writeFileSync(join(dir, 'in.csv'), lines.join('\n') + '\n');
    let withNegatives = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const out = `out-${seed}`;
      const job = { version: 1, input: { path: 'in.csv' }, attributes: {}, method: { type: 'dp-counts', epsilon: 0.2, queries: 'marginals', columns: ['region', 'sex'], domains: { region: ['north', 'south', 'east', 'west', 'centre'], sex: ['F', 'M'] } }, output: { dir: out, formats: ['csv'], report: ['json'] } };
      await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(seed) });
      const rows = readFileSync(join(dir, out, 'answers.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
      const header = readFileSync(join(dir, out, 'answers.csv'), 'utf8').split(/\r?\n/, 1)[0]!.split(',');
      const at = header.indexOf('answer');
      const negatives = rows.filter((r) => Number(r.split(',')[at]) < 0).length;
      const published = JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as { dp: { negativeAnswers?: number }; summary: string[] };
      expect(published.dp.negativeAnswers ?? 0, `seed ${seed}`).toBe(negatives);
      expect(published.summary.some((l) => /below 0: noise on a small count/.test(l))).toBe(negatives > 0);
      if (negatives > 0) withNegatives++;
    }
    expect(withNegatives).toBeGreaterThan(0);
  });
});
