import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isWhiteSpace, replaceRuns } from '../src/jobs/verify/searched-text.js';
import { parquetSearchableText } from '../src/io/input/parquet-reader.js';

const CLI = resolve('dist/cli/custos.mjs');

function custos(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const INPUT = ['region,age,occupation', ...Array.from({ length: 80 }, (_, i) => `r${i % 5},${20 + (i % 40)},${['a', 'b', 'c', 'd'][i % 4]}`)].join('\n');

/** Two releases of the same job with different seeds (CSV, Parquet, workbook, JSON report). */
let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'custos-verify-hostile-'));
  writeFileSync(join(work, 'input.csv'), INPUT);
  for (const [dir, seed] of [['one', '3'], ['two', '4']] as const) {
    writeFileSync(join(work, `${dir}.json`), JSON.stringify({ version: 1, input: { path: 'input.csv' }, attributes: { occupation: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, output: { dir, formats: ['csv', 'parquet', 'xlsx'], report: ['json'] } }));
    const run = custos(['run', `${dir}.json`, '--test-seed', seed], work);
    expect(run.code, run.stderr).toBe(0);
  }
});

/** A copy of release "one" to tamper with. */
function copyOfRelease(): string {
  const dir = mkdtempSync(join(work, 'copy-'));
  cpSync(join(work, 'one'), join(dir, 'one'), { recursive: true });
  return join(dir, 'one');
}

const verify = (dir: string) => custos(['verify', dir, '--accept-test-randomness'], work);

describe('verify on a tampered or hostile release folder', () => {
  it('the untampered release verifies, its Parquet file and workbook compared with the CSV (the control)', () => {
    const r = verify(join(work, 'one'));
    expect(r.stdout).toMatch(/ok +release\.parquet agrees with the CSV: 80 rows × 3 columns, every value as in release\.csv/);
    expect(r.stdout).toMatch(/ok +release\.xlsx agrees with the CSV: sheet "Release" is release\.csv/);
    expect(r.code, r.stdout).toBe(0);
  });

  it("a key manifest.json does not have (a channel for data nothing else checks) makes it no Custos manifest", () => {
    const dir = copyOfRelease();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, notes: INPUT }));
    const r = verify(dir);
    expect(r.stdout).toMatch(/FAIL +manifest\.json: .*its manifest\.json is not a Custos manifest/);
    expect(r.code).toBe(1);
    const entry = JSON.parse(readFileSync(join(work, 'one', 'manifest.json'), 'utf8')) as { files: object[] };
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, files: [{ ...entry.files[0], note: 'x' }, ...entry.files.slice(1)] }));
    expect(verify(dir).stdout).toMatch(/not a Custos manifest/);
  });

  it("a listed name holding a line break prints escaped, on its check's own line", () => {
    const dir = copyOfRelease();
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { files: { name: string; sha256: string; bytes: number }[] };
    manifest.files.push({ name: 'x\nok    forged: looks fine\u001b[2K', sha256: '0'.repeat(64), bytes: 1 });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const r = verify(dir);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('ok    forged'))).toEqual([]);
    expect(r.stdout).toContain('FAIL  checksum x\\nok    forged: looks fine\\u001b[2K: listed in manifest.json but missing');
  });

  it("a Parquet file that is not the CSV's table fails its own check, naming the first difference", () => {
    const dir = copyOfRelease();
    cpSync(join(work, 'two', 'release.parquet'), join(dir, 'release.parquet'));
    const r = verify(dir);
    expect(r.stdout).toMatch(/FAIL +release\.parquet agrees with the CSV: (row \d+, column \d+ \(\w+\): "[^"]*" in release\.parquet, "[^"]*" in release\.csv|release\.parquet has \d+ rows)/);
    expect(r.code).toBe(1);
  });

  it('report.json fields of the wrong shape fail checks; verify does not stop with a stack trace', () => {
    const report = JSON.parse(readFileSync(join(work, 'one', 'report.json'), 'utf8')) as Record<string, unknown>;
    for (const hostile of [{ schema: { toString: 1 } }, { kind: { toString: 1 } }, { output: { files: {} } }, { output: { files: [null] } }]) {
      const dir = copyOfRelease();
      writeFileSync(join(dir, 'report.json'), JSON.stringify({ ...report, ...hostile }));
      const r = verify(dir);
      expect(r.stderr, JSON.stringify(hostile)).toBe('');
      expect(r.stdout, JSON.stringify(hostile)).toMatch(/FAIL +report schema/);
      expect(r.code).toBe(1);
    }
  });
});

describe("verify's text search builds its forms of a text without a replace per match", () => {
  const texts = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '\t', '\n', '\u00a0', '\u3000', ':', '-', 'é', '\ud83d\ude00'), maxLength: 200 });

  it('runs of white space become one space, exactly as /\\s+/g would', () => {
    fc.assert(fc.property(texts, (text) => replaceRuns(text, isWhiteSpace, ' ') === text.replace(/\s+/g, ' ')), { seed: 14, numRuns: 2000 });
  });

  it('white space, colons and hyphens removed, exactly as /[\\s:-]/g would', () => {
    const separator = (code: number): boolean => code === 0x3a || code === 0x2d || isWhiteSpace(code);
    fc.assert(fc.property(texts, (text) => replaceRuns(text, separator, '') === text.replace(/[\s:-]/g, '')), { seed: 14, numRuns: 2000 });
  });

  it('every code unit \\s matches, and no other', () => {
    for (let code = 0; code <= 0xffff; code++) expect(isWhiteSpace(code), code.toString(16)).toBe(/\s/.test(String.fromCharCode(code)));
  });
});

describe('a Parquet footer larger than any Custos reads is refused before it is decoded', () => {
  it('a 20 MB footer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-parquet-footer-'));
    const length = 20 * 1024 * 1024;
    const file = Buffer.alloc(4 + length + 8);
    file.write('PAR1', 0, 'latin1');
    file.writeUInt32LE(length, 4 + length);
    file.write('PAR1', 4 + length + 4, 'latin1');
    writeFileSync(join(dir, 'big.parquet'), file);
    expect(() => parquetSearchableText(join(dir, 'big.parquet'))).toThrow(/big\.parquet: its footer has 20,971,520 bytes, more than the 16 MiB Custos reads/);
  });
});
