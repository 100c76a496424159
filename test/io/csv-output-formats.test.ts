/**
 * CSV releases in the forms European custodians need: UTF-8 with a BOM for Excel, Windows-1252
 * for older Excel, semicolons, LF or CRLF. A value the encoding cannot write stops the run before
 * any file is written, naming the column and the value; nothing is replaced.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { tableFromRows } from '../../src/common/table/table.js';
import { readCsv } from '../../src/io/input/csv-reader.js';
import { writeCsv } from '../../src/io/output/csv-writer.js';
import { compactReleaseTable, type CompactTable } from '../../src/io/output/release-table.js';
import { UnencodableError } from '../../src/io/output/text-encoding.js';
import { parseJob } from '../../src/jobs/load-job.js';
import { JobError } from '../../src/common/job/job-error.js';
import { runJob } from '../../src/jobs/run-job.js';
import { verifyRelease } from '../../src/jobs/verify/verify-release.js';

function release(header: string[], rows: string[][]): CompactTable {
  const t = tableFromRows(header, rows);
  return compactReleaseTable({ rowCount: t.rowCount, columns: t.columns.map((c) => ({ name: c.name, dictionary: c.dictionary, codes: c.codes, via: null, numeric: false })) });
}

const values = [['Zürich', 'café; €5'], ['Genève', 'naïve']];

describe('writeCsv formats', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-csvfmt-'));

  it('UTF-8 with BOM: the BOM first, every value read back', () => {
    const path = join(dir, 'bom.csv');
    writeCsv(path, release(['city', 'note'], values), { delimiter: ';', encoding: 'utf-8-bom', lineEnding: 'crlf' });
    const bytes = readFileSync(path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const back = readCsv(path, { missing: [''], onBadRow: 'error' });
    expect(back.encoding).toBe('utf-8');
    expect(back.table.columns[1]!.dictionary.slice(1)).toEqual(['café; €5', 'naïve']);
  });

  it('Windows-1252 with LF: one byte per character (é = E9, € = 80), read back the same', () => {
    const path = join(dir, 'w1252.csv');
    writeCsv(path, release(['city', 'note'], values), { delimiter: ';', encoding: 'windows-1252', lineEnding: 'lf' });
    const bytes = readFileSync(path);
    expect(bytes.includes(0x0d)).toBe(false);
    expect(bytes.includes(0xe9)).toBe(true);
    expect(bytes.includes(0x80)).toBe(true);
    expect(bytes.includes(0xc3)).toBe(false);
    const back = readCsv(path, { missing: [''], onBadRow: 'error' });
    expect(back.encoding).toBe('windows-1252');
    expect(back.table.columns[0]!.dictionary.slice(1)).toEqual(['Zürich', 'Genève']);
    expect(back.table.columns[1]!.dictionary.slice(1)).toEqual(['café; €5', 'naïve']);
  });

  it('a character Windows-1252 cannot write is refused, naming column and value, before the file exists', () => {
    const path = join(dir, 'refused.csv');
    expect(() => writeCsv(path, release(['name'], [['田中']]), { delimiter: ',', encoding: 'windows-1252', lineEnding: 'crlf' })).toThrow(UnencodableError);
    expect(() => writeCsv(path, release(['name'], [['田中']]), { delimiter: ',', encoding: 'windows-1252', lineEnding: 'crlf' })).toThrow(/“田中” in column “name” holds “田”/);
    expect(existsSync(path)).toBe(false);
  });
});

describe('a run with CSV options', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-csvrun-'));
  const lines = ['city,sex,diagnosis'];
  for (let i = 0; i < 200; i++) lines.push(`${['Zürich', 'Genève', 'Köln'][i % 3]},${i % 2 ? 'F' : 'M'},${['flu', 'cold', 'HIV'][i % 3]}`);
  writeFileSync(join(dir, 'in.csv'), lines.join('\n') + '\n');
  const job = (out: string, csv: Record<string, string>, input = 'in.csv') =>
    parseJob({ version: 1, input: { path: input }, attributes: { diagnosis: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, output: { dir: out, formats: ['csv'], report: ['json'], delimiter: ';', csv } }, dir);

  it('writes Windows-1252, semicolons and LF, and verify reads the release back', async () => {
    await runJob(job('w1252', { encoding: 'windows-1252', lineEnding: 'lf' }), { random: new SeededTestRandomSource(1) });
    const bytes = readFileSync(join(dir, 'w1252', 'release.csv'));
    expect(bytes.includes(0xfc)).toBe(true); // ü
    expect(bytes.toString('latin1').split('\n')[0]).toMatch(/;city;sex;diagnosis$/);
    const verified = await verifyRelease(join(dir, 'w1252'), { original: join(dir, 'in.csv'), acceptTestRandomness: true });
    expect(verified.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('a value Windows-1252 cannot hold stops the run with the key to change, leaving nothing', async () => {
    writeFileSync(join(dir, 'cjk.csv'), 'city,diagnosis\n東京,flu\nKöln,cold\n');
    await expect(runJob(job('cjk-out', { encoding: 'windows-1252' }, 'cjk.csv'), { random: new SeededTestRandomSource(1) })).rejects.toThrow(JobError);
    expect(readdirSync(dir).filter((n) => n.startsWith('cjk-out'))).toEqual([]);
  });
});
