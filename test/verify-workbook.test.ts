import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/custos.mjs');

function custos(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A table whose values each format writes differently: numbers written two ways, formula triggers, line breaks, blanks. */
const INPUT = [
  'region,score,note,=q,occupation',
  ...Array.from({ length: 60 }, (_, i) => {
    const score = ['1.50', '2', '2.0', '-3.25', '10', ''][i % 6];
    const note = ['plain', '=1+2', '"two\r\nlines"', '@sum', '-x', ' padded ', '+'][i % 7];
    return `r${i % 4},${score},${note},${i % 3 === 0 ? '=HYPERLINK("x")' : 'v'},${['a', 'b', 'c'][i % 3]}`;
  }),
].join('\n');

function release(methodAndAttributes: object, dir: string): void {
  writeFileSync(join(dir, 'input.csv'), INPUT);
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'input.csv' }, ...methodAndAttributes, output: { dir: 'out', formats: ['csv', 'xlsx'], report: ['json'] } }));
  const run = custos(['run', 'job.json', '--test-seed', '11'], dir);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
}

const line = (stdout: string): string => stdout.split('\n').find((l) => l.includes('release.xlsx agrees with the CSV')) ?? '(no such check)';

describe('verify compares the workbook with the CSV files, sheet by sheet and value by value', () => {
  it('a release of every kind of value agrees: numbers as numbers, text unguarded, line breaks and blanks as written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-verify-xlsx-'));
    release({ attributes: { occupation: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.6, domains: { occupation: 'from-data' } } }, dir);
    const verify = custos(['verify', 'out', '--accept-test-randomness'], dir);
    expect(line(verify.stdout)).toMatch(/^ok +release\.xlsx agrees with the CSV: sheet "Release" is release\.csv \(60 rows × 5 columns\), value by value$/);
    expect(verify.code, verify.stdout).toBe(0);
  });

  it('two tables (β-privacy QIT and ST) are each found on their sheet', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-verify-xlsx-'));
    release({ attributes: { occupation: 'sensitive', note: 'identifier', '=q': 'identifier' }, method: { type: 'beta-privacy', beta: { coefficient: 4 }, maxBucket: 20, domains: { occupation: 'from-data' } } }, dir);
    const verify = custos(['verify', 'out', '--accept-test-randomness'], dir);
    expect(line(verify.stdout)).toMatch(/^ok +release\.xlsx agrees with the CSV: sheet "QIT" is qit\.csv \(\d+ rows × \d+ columns\); sheet "ST" is st\.csv \(\d+ rows × \d+ columns\), value by value$/);
  });

  it('a CSV changed in one cell, or missing a row, no longer agrees: the check names the row, the column and both values', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-verify-xlsx-'));
    release({ attributes: { occupation: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.6, domains: { occupation: 'from-data' } } }, dir);
    const csvPath = join(dir, 'out', 'release.csv');
    const original = readFileSync(csvPath, 'utf8');
    // The first released region r0 becomes r1 (the test stamp column comes first and is not compared).
    writeFileSync(csvPath, original.replace(',r0,', ',r1,'));
    const changed = custos(['verify', 'out', '--accept-test-randomness'], dir);
    expect(line(changed.stdout)).toMatch(/^FAIL +release\.xlsx agrees with the CSV: row \d+, column 1 \(region\): "r0" in sheet "Release", "r1" in release\.csv$/);
    expect(changed.code).not.toBe(0);
    // A record without quotes (so it holds no line break) dropped.
    const lines = original.split('\r\n');
    const dropped = lines.findLastIndex((l, i) => i > 0 && l !== '' && !l.includes('"'));
    writeFileSync(csvPath, lines.filter((_, i) => i !== dropped).join('\r\n'));
    const shorter = custos(['verify', 'out', '--accept-test-randomness'], dir);
    expect(line(shorter.stdout)).toMatch(/^FAIL +release\.xlsx agrees with the CSV: sheet "Release" has 60 rows × 5 columns, release\.csv 59 × 5$/);
  });
});
