/**
 * Issue 30: whether a released column is written as numbers depends on the released values only.
 * A record the method withholds (here suppressed by global recoding) that holds text in a column of
 * numbers used to make the whole column text in the workbook, Parquet, SPSS and Stata files: a bit
 * per column about a withheld record. verify writes every file again from the CSV and the stored
 * types, so it must agree byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dtaNumericColumns, parquetNumericColumns, savNumericColumns, xlsxNumericColumns } from '../src/jobs/verify/stored-types.js';

const CLI = resolve('dist/cli/custos.mjs');

function input(dir: string): string {
  let state = 4242;
  const next = (m: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * m);
  };
  const lines = ['id,age,zip,children,income'];
  for (let i = 0; i < 300; i++) {
    // The one record with a unique age and zip, suppressed under 3-anonymity, holds text in two number columns.
    if (i === 150) lines.push(`id-${i},97,99999,unknown,n/a`);
    else lines.push(`id-${i},${20 + next(40)},${10000 + 25 * next(20)},${next(5)},${['1.5', '-2', '30000', '0.25'][next(4)]}`);
  }
  const path = join(dir, 'in.csv');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('a column of released numbers is written as numbers, whatever a withheld record held', () => {
  it('in every typed format, and verify --original writes every file again byte for byte', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-numeric-'));
    const job = {
      version: 1,
      input: { path: input(dir) },
      attributes: { id: 'identifier', age: 'quasi', zip: 'quasi', children: 'insensitive', income: 'insensitive' },
      method: { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 3 }], suppressionLimit: 0.05, hierarchies: { zip: { type: 'masking', length: 5 }, age: { type: 'interval', widths: [10, 20, 40] } } },
      output: { dir: 'release', formats: ['csv', 'xlsx', 'parquet', 'sav', 'dta'], report: ['json'] },
      // 3-anonymity: the review's limit on prosecutor risk set to what the model gives (1/3).
      review: { maxProsecutorRisk: 0.34 },
    };
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
    const run = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json')], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const release = join(dir, 'release');
    const csv = readFileSync(join(release, 'release.csv'), 'utf8');
    // The premise: the record with text is withheld.
    expect(csv).not.toMatch(/unknown|n\/a/);
    const header = csv.split('\r\n')[0]!.split(',');
    const children = header.indexOf('children');
    const income = header.indexOf('income');
    for (const numeric of [
      parquetNumericColumns(join(release, 'release.parquet')),
      xlsxNumericColumns(readFileSync(join(release, 'release.xlsx')), 'xl/worksheets/sheet1.xml', header.length),
      savNumericColumns(join(release, 'release.sav'), header.length),
      dtaNumericColumns(join(release, 'release.dta'), header.length),
    ]) {
      expect([numeric[children], numeric[income]]).toEqual([true, true]);
    }
    const verify = spawnSync(process.execPath, [CLI, 'verify', release, '--original', join(dir, 'in.csv')], { encoding: 'utf8' });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    for (const file of ['release.csv', 'release.parquet', 'release.sav', 'release.dta', 'release.xlsx']) expect(verify.stdout).toMatch(new RegExp(`ok +${file.replace('.', '\\.')} written again: byte for byte`));
  }, 120_000);
});
