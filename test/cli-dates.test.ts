import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isoOf, registerRows, type RegisterRow, writeRegisterCsv, writeRegisterWorkbook } from './fixtures/register-files.js';

const CLI = resolve('dist/cli/custos.mjs');
const ROWS = registerRows();

/** Global recoding of the register (k = 2) with the date hierarchy on the birth date. */
function run(input: Record<string, unknown>, dir: string): { code: number; stdout: string; stderr: string; out: string } {
  const job = {
    version: 1,
    input,
    attributes: { id: 'identifier', birth: 'quasi', sex: 'quasi', region: 'insensitive', diagnosis: 'insensitive' },
    method: { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 2 }], suppressionLimit: 1, hierarchies: { birth: { type: 'date' } } },
    output: { dir: 'out', formats: ['csv'], report: ['json'] },
  };
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json')], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, out: join(dir, 'out') };
}

/** What the register's birth dates can be released as: the ISO date, its month, year, decade, or "*". */
function generalizations(rows: readonly RegisterRow[]): Set<string> {
  const out = new Set(['*']);
  for (const { birth } of rows) {
    const iso = isoOf(birth);
    const decade = Math.floor(birth.year / 10) * 10;
    for (const v of [iso, iso.slice(0, 7), iso.slice(0, 4), `${decade}-${decade + 9}`]) out.add(v);
  }
  return out;
}

/** The released birth column (the CSV's second column after the identifier is dropped: birth is first). */
function releasedBirths(out: string): string[] {
  const lines = readFileSync(join(out, 'release.csv'), 'utf8').trim().split('\r\n');
  const at = lines[0]!.split(',').indexOf('birth');
  return lines.slice(1).map((l) => l.split(',')[at]!);
}

describe('custos run: dates as people type them', () => {
  it('reads a workbook whose data sheet mixes date cells with dd.mm.yyyy text, and generalizes them as one column of dates; verify re-reads the original the same way', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dates-'));
    writeRegisterWorkbook(join(dir, 'register.xlsx'));
    const r = run({ path: 'register.xlsx' }, dir);
    expect(r.code, r.stderr).toBe(0);
    const released = releasedBirths(r.out);
    expect(released.length).toBeGreaterThan(0);
    // Every released value generalizes a date of the register (text and cells read alike), never the text.
    const expected = generalizations(ROWS);
    for (const v of released) expect(expected.has(v), v).toBe(true);
    expect(new Set(released).size).toBeGreaterThan(1);
    const verify = spawnSync(process.execPath, [CLI, 'verify', r.out, '--original', join(dir, 'register.xlsx')], { encoding: 'utf8' });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
  });

  it('reads a Windows-1252 ";" CSV of dd/mm/yyyy dates as dates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dates-'));
    writeRegisterCsv(join(dir, 'register.csv'));
    const r = run({ path: 'register.csv' }, dir);
    expect(r.code, r.stderr).toBe(0);
    const released = releasedBirths(r.out);
    const expected = generalizations(ROWS);
    for (const v of released) expect(expected.has(v), v).toBe(true);
    expect(new Set(released).size).toBeGreaterThan(1);
  });

  it('refuses dates that read day first and month first, naming the column and the key; the key settles it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dates-'));
    const small = ROWS.map((row) => ({ ...row, birth: { ...row.birth, day: 1 + (row.birth.day % 12) } }));
    writeRegisterCsv(join(dir, 'register.csv'), small, { monthFirst: true });
    const refused = run({ path: 'register.csv' }, dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/input\.dates\.birth: the dates of "birth" can be read day first or month first .*"dd\/mm\/yyyy" \(day first\) or "mm\/dd\/yyyy" \(month first\)/);
    expect(existsSync(refused.out)).toBe(false);
    const stated = run({ path: 'register.csv', dates: { birth: 'mm/dd/yyyy' } }, dir);
    expect(stated.code, stated.stderr).toBe(0);
    const expected = generalizations(small);
    for (const v of releasedBirths(stated.out)) expect(expected.has(v), v).toBe(true);
  });

  it('names the line, column and value of a date that does not fit the format, stated or needed by the date hierarchy', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dates-'));
    writeRegisterCsv(join(dir, 'register.csv'), ROWS, { extra: ['R9999;31/02/2021;F;Bretagne;none'] });
    const line = ROWS.length + 2;
    const stated = run({ path: 'register.csv', dates: { birth: 'dd/mm/yyyy' } }, dir);
    expect(stated.code).toBe(3);
    expect(stated.stderr).toContain(`register.csv:${line}:2: "31/02/2021" in column "birth" is not a date written dd/mm/yyyy, the form input.dates.birth gives`);
    const found = run({ path: 'register.csv' }, dir);
    expect(found.code).toBe(3);
    expect(found.stderr).toContain(`register.csv:${line}:2: "31/02/2021" in column "birth" is not a date written dd/mm/yyyy, the form of the column's other dates, and its date hierarchy needs every value to be a date`);
    expect(existsSync(found.out)).toBe(false);
  });

  it('refuses a date hierarchy on a column of no dates in the custodian\'s words, naming the values', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dates-'));
    writeRegisterCsv(join(dir, 'register.csv'));
    const r = run({ path: 'register.csv', dates: { birth: 'text' } }, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/method\.hierarchies\.birth: 300 values of "birth" cannot be read as dates, which its date hierarchy needs: "\d\d\/\d\d\/\d{4}"/);
    expect(r.stderr).not.toMatch(/path to the root/);
  });

  it('refuses a date format for a column the input does not have', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-dates-'));
    writeRegisterCsv(join(dir, 'register.csv'));
    const r = run({ path: 'register.csv', dates: { born: 'dd/mm/yyyy' } }, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('input.dates.born: the input has no column "born"');
  });
});
