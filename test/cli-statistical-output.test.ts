import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable } from '../src/io/input/read-table.js';

const CLI = resolve('dist/cli/custos.mjs');

function custos(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('releases in SPSS and Stata formats (output.formats "sav", "dta")', () => {
  it('an SPSS input released as .sav beside the CSV: labels of released values, dates as dates; verify compares it with the CSV', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-sav-out-'));
    const job = {
      version: 1,
      input: { path: resolve('test/fixtures/spss/people-plain.sav'), missingSensitive: 'exclude' },
      attributes: { id: 'identifier', occupation: 'sensitive', note: 'identifier' },
      method: { type: 'uniform-perturbation', retention: 0.6, domains: { occupation: 'from-data' } },
      output: { dir: 'out', formats: ['csv', 'sav', 'dta'], report: ['json'] },
    };
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
    const run = custos(['run', 'job.json', '--test-seed', '7'], dir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const sav = readTable(join(dir, 'out', 'release.sav'), { missing: [], onBadRow: 'error' });
    const csv = readFileSync(join(dir, 'out', 'release.csv'), 'utf8').trim().split(/\r?\n/);
    expect(sav.table.rowCount).toBe(csv.length - 1);
    const variables = new Map((sav.variables ?? []).map((v) => [v.name, v]));
    expect(variables.get('visit')!.dates).toBe('date');
    expect(variables.get('occupation')!.label).toBe('Occupation (ISCO major group)');
    // Only labels of values the release holds, each with the input's code.
    const occupation = sav.table.columns.find((c) => c.name === 'occupation')!;
    const released = new Set(Array.from(occupation.codes, (k) => occupation.dictionary[k]!).filter((v) => v !== ''));
    const inputCodes = new Map([['Managers', '1'], ['Professionals', '2'], ['Adm-clerical', '3']]);
    expect(new Map(variables.get('occupation')!.valueLabels.map((l) => [l.label, l.code]))).toEqual(new Map([...released].map((l) => [l, inputCodes.get(l)])));
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')) as { output: { files: { name: string }[] } };
    expect(report.output.files.map((f) => f.name)).toContain('release.sav');
    const dta = readTable(join(dir, 'out', 'release.dta'), { missing: [], onBadRow: 'error' });
    const column = (t: typeof dta, name: string): string[] => {
      const c = t.table.columns.find((x) => x.name === name)!;
      return Array.from(c.codes, (k) => c.dictionary[k]!);
    };
    for (const name of ['occupation', 'visit', 'age', 'region']) expect(column(dta, name), name).toEqual(column(sav, name));
    expect(dta.variables!.find((v) => v.name === 'occupation')!.valueLabels.length).toBe(released.size);
    const verify = custos(['verify', 'out', '--accept-test-randomness'], dir);
    expect(verify.stdout).toMatch(/ok +release\.sav agrees with the CSV: \d+ rows × \d+ columns/);
    expect(verify.stdout).toMatch(/ok +release\.dta agrees with the CSV: \d+ rows × \d+ columns/);
    expect(verify.code, verify.stdout).toBe(0);
  });

  it('refuses "sav" without "csv", naming output.formats (exit 2)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-sav-out-'));
    writeFileSync(join(dir, 'job.json'), JSON.stringify({
      version: 1,
      input: { path: resolve('resources/adult/adult.csv'), missing: ['', '?'] },
      attributes: { occupation: 'sensitive' },
      method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } },
      output: { formats: ['sav'] },
    }));
    const run = custos(['run', 'job.json'], dir);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/output\.formats.*"sav" and "dta" are written beside "csv"/);
  });
});
