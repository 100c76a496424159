import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/io/input/csv-reader.js';
import { readParquet } from '../../src/io/input/parquet-reader.js';
import { csvText } from '../../src/io/output/neutralize.js';
import { parquetKind, writeParquet } from '../../src/io/output/parquet-writer.js';
import { compactReleaseTable, type CompactTable, type ReleaseColumn } from '../../src/io/output/release-table.js';
import { writeCsv, rfc4180 } from '../../src/io/output/csv-writer.js';
import { MISSING_CODE, tableFromRows, type Table } from '../../src/common/table/table.js';
import { searchableText } from '../../src/io/input/searchable-text.js';
import { CONFIDENTIAL_MARK } from '../../src/common/report/report-model.js';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT = resolve('resources/adult/adult.csv');

function releaseTable(header: string[], rows: string[][], numeric: readonly string[] = []): CompactTable {
  const table = tableFromRows(header, rows);
  return compactReleaseTable({ rowCount: table.rowCount, columns: table.columns.map((c): ReleaseColumn => ({ name: c.name, dictionary: c.dictionary, codes: c.codes, via: null, numeric: numeric.includes(c.name) })) });
}

/** Row r of a table as text, the missing code as ''. */
const cells = (table: Table, r: number): string[] => table.columns.map((c) => (c.codes[r] === MISSING_CODE ? '' : c.dictionary[c.codes[r]!]!));

/**
 * The CSV, read back, against the Parquet file, read back: the same rows, a CSV cell being the
 * Parquet value as the CSV writes it (its formula guard added).
 */
function expectSameAsCsv(csvPath: string, parquetPath: string): number {
  const csv = readCsv(csvPath, { delimiter: ',', missing: [''], onBadRow: 'error' }).table;
  const parquet = readParquet(parquetPath, { missing: [''], onBadRow: 'error' }).table;
  expect(parquet.columns.map((c) => csvText(c.name))).toEqual(csv.columns.map((c) => c.name));
  expect(parquet.rowCount).toBe(csv.rowCount);
  for (let r = 0; r < csv.rowCount; r++) expect(cells(parquet, r).map(csvText), `row ${r}`).toEqual(cells(csv, r));
  return csv.rowCount;
}

function custos(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function run(method: Record<string, unknown>, formats: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-parquet-run-'));
  writeFileSync(
    join(dir, 'job.json'),
    JSON.stringify({ version: 1, input: { path: ADULT }, attributes: { occupation: 'sensitive', 'salary-class': 'insensitive' }, method, output: { dir: 'out', formats, report: ['json'] } }),
  );
  const r = custos(['run', join(dir, 'job.json'), '--test-seed', '3']);
  expect(r.code, r.stderr).toBe(0);
  return join(dir, 'out');
}

describe('Parquet releases (hyparquet-writer)', () => {
  it('numbers a double holds exactly and written as JavaScript writes them are INT64 or DOUBLE; anything else is text', () => {
    const t = releaseTable(
      ['age', 'income', 'padded', 'long', 'code'],
      [
        ['34', '4250.5', '1.50', '1234567890123456', '007'],
        ['', '-0.25', '2', '1', '=1+1'],
      ],
      ['age', 'income', 'padded', 'long'],
    );
    expect(t.columns.map(parquetKind)).toEqual(['int64', 'double', 'string', 'string', 'string']);
  });

  it('a release written as Parquet reads back with the same values as its CSV (nulls, text beyond ASCII, line breaks, formula-like text)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-parquet-write-'));
    const rows = Array.from({ length: 70_000 }, (_, i) => [String(i % 91), i % 13 === 0 ? '' : (i * 0.25).toString(), ['Zürich', '東京', '=SUM(A1)', 'two\r\nlines', '-5', ''][i % 6]!, `id-${i}`]);
    const table = releaseTable(['age', 'income', 'place', 'code'], rows, ['age', 'income']);
    writeCsv(join(dir, 'release.csv'), table, rfc4180());
    const written = writeParquet(join(dir, 'release.parquet'), table);
    const bytes = readFileSync(join(dir, 'release.parquet'));
    expect(written.bytes).toBe(bytes.length);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
    expect(expectSameAsCsv(join(dir, 'release.csv'), join(dir, 'release.parquet'))).toBe(70_000);
    // More than one block of codes: more than one row group.
    const imported = readParquet(join(dir, 'release.parquet'), { missing: [], onBadRow: 'error' });
    expect(imported.variables!.find((v) => v.name === 'income')!.declaredMissing).toBe(Math.ceil(70_000 / 13));
    expect(() => writeParquet(join(dir, 'release.parquet'), table)).toThrow(/EEXIST/);
  });

  it('a run with CSV and Parquet: release.parquet holds the CSV rows, is checksummed in the manifest and the report, and verify passes', () => {
    const out = run({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } }, ['csv', 'parquet']);
    expect(readdirSync(out).sort()).toEqual(['job.json', 'manifest.json', 'release.csv', 'release.parquet', 'report.json']);
    expectSameAsCsv(join(out, 'release.csv'), join(out, 'release.parquet'));
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as { files: { name: string; bytes: number }[] };
    expect(manifest.files.find((f) => f.name === 'release.parquet')!.bytes).toBe(readFileSync(join(out, 'release.parquet')).length);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as { output: { files: { name: string; rows?: number }[] } };
    expect(report.output.files.find((f) => f.name === 'release.parquet')!.rows).toBeGreaterThan(1000);
    const verify = custos(['verify', out, '--json', '--accept-test-randomness']);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    const checks = (JSON.parse(verify.stdout) as { checks: { name: string; ok: boolean }[] }).checks;
    expect(checks.find((c) => c.name === 'checksum release.parquet')?.ok).toBe(true);
  });

  it('a release of Parquet files only verifies from them (reconstruction privacy; β-privacy QIT and ST), and a changed value is caught', () => {
    const out = run({ type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } }, ['parquet']);
    expect(readdirSync(out)).not.toContain('release.csv');
    const verify = custos(['verify', out, '--json', '--accept-test-randomness']);
    expect(verify.code, verify.stdout).toBe(0);
    writeFileSync(join(out, 'release.parquet'), Buffer.concat([readFileSync(join(out, 'release.parquet')), Buffer.from([0])]));
    const changed = custos(['verify', out, '--json', '--accept-test-randomness']);
    expect(changed.code).toBe(1);
    expect((JSON.parse(changed.stdout) as { checks: { name: string; ok: boolean }[] }).checks.find((c) => c.name === 'checksum release.parquet')?.ok).toBe(false);
    const beta = run({ type: 'beta-privacy', beta: { default: 0.25, values: { 'Armed-Forces': 0.5, 'Prof-specialty': 0.3 } }, domains: { occupation: 'from-data' } }, ['parquet']);
    expect(readdirSync(beta)).toEqual(expect.arrayContaining(['qit.parquet', 'st.parquet']));
    const betaVerify = custos(['verify', beta, '--json', '--accept-test-randomness']);
    expect(betaVerify.code, betaVerify.stdout).toBe(0);
    expect((JSON.parse(betaVerify.stdout) as { checks: { name: string }[] }).checks.length).toBeGreaterThan(8);
  });

  it('the publishability check searches a Parquet file: its values (compressed on disk) and column names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-parquet-search-'));
    const secret = 'c0ffee'.repeat(10);
    const table = releaseTable(['note', `path /secret/${secret}`], Array.from({ length: 5000 }, (_, i) => [i === 4321 ? `${CONFIDENTIAL_MARK} ${secret}` : `row ${i % 7}`, 'x']));
    writeParquet(join(dir, 'release.parquet'), table);
    // Pages may be compressed, so the check reads the values rather than the bytes.
    const text = searchableText(join(dir, 'release.parquet')).map((p) => p.text).join('\n');
    expect(text).toContain(`${CONFIDENTIAL_MARK} ${secret}`);
    expect(text).toContain(`path /secret/${secret}`);
  });
});
