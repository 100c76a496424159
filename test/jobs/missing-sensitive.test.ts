/**
 * Missing values in a sensitive column get a stated treatment: refused (the
 * default), a value of their own, or excluded and counted in the internal
 * report only. verify re-reads the original through the same treatment.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { keepRows, missingAsCategory, treatMissingSensitive } from '../../src/common/table/missing-sensitive.js';
import { tableFromRows } from '../../src/common/table/table.js';
import { parseJob } from '../../src/jobs/load-job.js';
import { JobError } from '../../src/common/job/job-error.js';
import { runJob } from '../../src/jobs/run-job.js';
import { verifyRelease } from '../../src/jobs/verify/verify-release.js';

describe('the treatments, on a table', () => {
  const table = tableFromRows(['age', 'diagnosis'], [['30', 'flu'], ['40', ''], ['50', 'HIV'], ['60', '']]);

  it('category: every missing value becomes one label that is not a value of the column', () => {
    const { table: t, excluded } = treatMissingSensitive(table, ['diagnosis'], 'category');
    const d = t.columns[1]!;
    expect(excluded).toBe(0);
    expect(d.missing).toBe(0);
    expect([...d.codes].map((c) => d.dictionary[c])).toEqual(['flu', '(missing)', 'HIV', '(missing)']);
    const clash = tableFromRows(['s'], [['(missing)'], ['']]);
    expect(missingAsCategory(clash.columns[0]!).dictionary).toEqual(['', '(missing)', '(missing 2)']);
  });

  it('exclude: drops the records and every value only they held', () => {
    const { table: t, excluded } = treatMissingSensitive(table, ['diagnosis'], 'exclude');
    expect(excluded).toBe(2);
    expect(t.rowCount).toBe(2);
    expect(t.columns[0]!.dictionary).toEqual(['', '30', '50']);
    expect(t.columns[0]!.distinct).toBe(2);
    expect(keepRows(table, Uint8Array.from([1, 1, 1, 1])).columns[0]!.dictionary).toEqual(table.columns[0]!.dictionary);
  });

  it('error, or no sensitive column with missing values: the table is left as it is', () => {
    expect(treatMissingSensitive(table, ['diagnosis'], 'error').table).toBe(table);
    expect(treatMissingSensitive(table, ['age'], 'exclude').table).toBe(table);
  });
});

describe('a run with missing sensitive values', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-missing-'));
  const input = join(dir, 'input.csv');
  const lines = ['age,sex,diagnosis'];
  for (let i = 0; i < 240; i++) lines.push(`${20 + (i % 30)},${i % 2 ? 'F' : 'M'},${i % 17 === 0 ? '' : ['flu', 'cold', 'HIV'][i % 3]}`);
  writeFileSync(input, lines.join('\n') + '\n');
  const missing = lines.slice(1).filter((l) => l.endsWith(',')).length;
  const job = (treatment: string | undefined, out: string) =>
    parseJob(
      { version: 1, input: { path: input, ...(treatment ? { missingSensitive: treatment } : {}) }, attributes: { diagnosis: 'sensitive' }, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data' } }, output: { dir: join(dir, out), formats: ['csv'], report: ['json'] } },
      dir,
    );

  it('is refused by default, naming the column and the key to change', async () => {
    await expect(runJob(job(undefined, 'default'), { random: new SeededTestRandomSource(1) })).rejects.toThrow(JobError);
    await expect(runJob(job(undefined, 'default'), { random: new SeededTestRandomSource(1) })).rejects.toThrow(/missing value/);
  });

  it('category: every record is released, the missing ones under "(missing)", and verify agrees', async () => {
    const result = await runJob(job('category', 'category'), { random: new SeededTestRandomSource(2) });
    expect(result.report.input.rows).toBe(240);
    expect(result.report.risk.bySensitive![0]!.domainSize).toBe(4);
    const verified = await verifyRelease(join(dir, 'category'), { original: input, acceptTestRandomness: true });
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('exclude: the records are left out, counted in the internal report only, and verify agrees', async () => {
    const result = await runJob(job('exclude', 'exclude'), { random: new SeededTestRandomSource(3) });
    expect(result.report.input.excludedRows).toBe(missing);
    expect(result.report.warnings.join(' ')).toMatch(new RegExp(`${missing} record\\(s\\) with a missing sensitive value were excluded`));
    const published = readFileSync(join(dir, 'exclude', 'report.json'), 'utf8');
    expect(published).not.toMatch(/excludedRows|were excluded/);
    const verified = await verifyRelease(join(dir, 'exclude'), { original: input, acceptTestRandomness: true });
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
  });
});
