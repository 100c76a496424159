import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { parseJob } from '../../../jobs/load-job.js';
import { runJob } from '../../../jobs/run-job.js';

async function publishedWarnings(beta: Record<string, unknown>, fakeValues: number): Promise<string> {
  return (await publishedReport(beta, fakeValues)).warnings.join('\n');
}

async function publishedReport(beta: Record<string, unknown>, fakeValues: number): Promise<{ warnings: string[]; beta: { chosen: { sizes: Record<string, number> } } }> {
  const dir = mkdtempSync(join(tmpdir(), 'custos-beta-warn-'));
  const lines = ['age,diagnosis'];
  for (let i = 0; i < 120; i++) lines.push(`${20 + (i % 9)},${['flu', 'cold', 'HIV', 'asthma'][i % 4]}`);
  writeFileSync(join(dir, 'in.csv'), lines.join('\n') + '\n');
  const job = { version: 1, input: { path: 'in.csv' }, attributes: { diagnosis: 'sensitive' }, method: { type: 'beta-privacy', beta, fakeValues, domains: { diagnosis: ['flu', 'cold', 'HIV', 'asthma'] } }, output: { dir: 'out', formats: ['csv'], report: ['json'] } };
  await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(2) });
  return JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
}

describe('β-privacy warnings a reader of the release needs', () => {
  it('the coefficient form with fake values says that the published β_v give away the exact frequencies the fakes blur', async () => {
    expect(await publishedWarnings({ coefficient: 3 }, 1)).toMatch(/exact frequency in the input/);
    expect(await publishedWarnings({ default: '0.5' }, 1)).not.toMatch(/exact frequency/);
    expect(await publishedWarnings({ coefficient: 3 }, 0)).toBe('');
  });

  it('a value whose β is 1 is named as unprotected, and records in buckets of one are counted as published exactly', async () => {
    // Four values of frequency 1/4: c = 8 gives β = min(1, 2) = 1 for each.
    const unbounded = await publishedReport({ coefficient: 8 }, 0);
    const text = unbounded.warnings.join('\n');
    expect(text).toMatch(/β = 1 for “flu”, “cold”, “HIV” and “asthma”: the guarantee sets no bound for these values/);
    const singles = unbounded.beta.chosen.sizes['1'] ?? 0;
    // Σ|B|² is least with buckets of one when nothing bounds the values.
    expect(singles).toBeGreaterThan(0);
    expect(text).toContain(`${singles} records are in buckets of size 1: each one's diagnosis is published exactly`);
    // Fake values hide a single record's value: no such count then.
    expect(await publishedWarnings({ coefficient: 8 }, 1)).not.toMatch(/buckets of size 1/);
    // β = 1 for one value only.
    expect(await publishedWarnings({ default: '1/2', values: { flu: '1' } }, 0)).toMatch(/β = 1 for “flu”: the guarantee sets no bound for this value/);
    expect(await publishedWarnings({ default: '0.5' }, 0)).not.toMatch(/β = 1|size 1/);
  });

  it('the summary names the strictest β of the declared table, whether or not a record holds that value (which values the input lacks is not published)', async () => {
    const summaryOf = async (withLeprosy: boolean): Promise<string> => {
      const dir = mkdtempSync(join(tmpdir(), 'custos-beta-strictest-'));
      const lines = ['age,diagnosis'];
      for (let i = 0; i < 120; i++) lines.push(`${20 + (i % 9)},${withLeprosy && i === 7 ? 'leprosy' : ['flu', 'cold', 'HIV', 'asthma'][i % 4]}`);
      writeFileSync(join(dir, 'in.csv'), lines.join('\n') + '\n');
      const domain = ['flu', 'cold', 'HIV', 'asthma', 'leprosy'];
      const job = { version: 1, input: { path: 'in.csv' }, attributes: { diagnosis: 'sensitive' }, method: { type: 'beta-privacy', beta: { default: '1/2', values: { leprosy: '1/20' } }, fakeValues: 0, domains: { diagnosis: domain } }, output: { dir: 'out', formats: ['csv'], report: ['json'] } };
      await runJob(parseJob(job, dir), { random: new SeededTestRandomSource(2) });
      return (JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { summary: string[] }).summary[1]!;
    };
    const without = await summaryOf(false);
    expect(without).toMatch(/strictest: "leprosy" at 1\/20/);
    expect(await summaryOf(true)).toBe(without);
  });
});

