/**
 * Hostile files, careless folders: every refusal keeps the exit-code contract
 * (2 invalid job, 3 unreadable input, 1 anything else), names the file or key,
 * prints no stack trace and leaves nothing behind.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeFailure } from '../src/jobs/execute-request.js';
import { clip } from '../src/io/report/report-pdf.js';
import type { ImportedTable } from '../src/io/input/import-types.js';
import { ACCEPT_REVIEW } from './accept-review.js';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT = resolve('resources/adult/adult.csv');
/** The first 32 bytes of a SAS data set and of a SAS format catalog (they differ in byte 15). */
const SAS7BDAT_MAGIC = Buffer.from('000000000000000000000000c2ea8160b31411cfbd92080009c7318c181f1011', 'hex');
const SAS7BCAT_MAGIC = Buffer.from('000000000000000000000000c2ea8163b31411cfbd92080009c7318c181f1011', 'hex');

function custos(args: string[], cwd?: string): { code: number; stdout: string; stderr: string; ms: number } {
  const start = Date.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 20_000, ...(cwd ? { cwd } : {}) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - start };
}

const made: string[] = [];
function workdir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-hostile-'));
  made.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function expectClean(r: { stderr: string }): void {
  expect(r.stderr).not.toMatch(/\n\s+at |Error:|EISDIR|ENOENT|RangeError/);
}

const job = (input: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({ version: 1, input: { path: input, delimiter: ';' }, attributes: { occupation: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, review: ACCEPT_REVIEW, ...extra });

describe('inputs that are not data files', () => {
  it('a folder, a FIFO, a missing file and a dangling link exit 3 with plain words', () => {
    const dir = workdir();
    mkdirSync(join(dir, 'folder.csv'));
    execFileSync('mkfifo', [join(dir, 'pipe.csv')]);
    symlinkSync(join(dir, 'nowhere.csv'), join(dir, 'dangling.csv'));
    const cases: [string, RegExp][] = [
      ['folder.csv', /folder\.csv: it is a folder, not a file/],
      ['pipe.csv', /pipe\.csv: it is a named pipe \(FIFO\)/],
      ['missing.csv', /missing\.csv: the file does not exist/],
      ['dangling.csv', /dangling\.csv: the file does not exist \(or a link points nowhere\)/],
    ];
    for (const [file, message] of cases) {
      const r = custos(['inspect', join(dir, file)]);
      expect(r.code, file).toBe(3);
      expect(r.stderr).toMatch(message);
      expectClean(r);
      // A FIFO must never block: refused from its metadata, without opening it.
      expect(r.ms).toBeLessThan(10_000);
    }
    writeFileSync(join(dir, 'job.json'), job('folder.csv'));
    const run = custos(['run', join(dir, 'job.json')]);
    expect(run.code).toBe(3);
    expectClean(run);
  });

  it('files of statistical packages and other binaries exit 3 naming their likely format', () => {
    const dir = workdir();
    const files: [string, Buffer, RegExp][] = [
      ['data.csv.gz', Buffer.from([0x1f, 0x8b, 8, 0, 0, 0]), /gzip/],
      ['renamed.csv', Buffer.from('PK\u0003\u0004\u0014\u0000', 'latin1'), /zip archive/],
      ['blob.csv', Buffer.from('a,b\n1,\u0000\u0001\n', 'latin1'), /binary file/],
      ['formats.sas7bcat', Buffer.concat([SAS7BCAT_MAGIC, Buffer.alloc(100)]), /SAS format catalog/],
    ];
    for (const [name, bytes, format] of files) {
      writeFileSync(join(dir, name), bytes);
      const r = custos(['inspect', join(dir, name)]);
      expect(r.code, name).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`${name.replace(/\./g, '\\.')}: this looks like`));
      expect(r.stderr).toMatch(format);
      expectClean(r);
    }
    // SPSS files are read (test/io/spss.test.ts); a damaged one is refused as one.
    writeFileSync(join(dir, 'survey.sav'), Buffer.from('$FL2@(#) IBM SPSS STATISTICS 64-bit Linux\0\0\0\0', 'latin1'));
    const sav = custos(['inspect', join(dir, 'survey.sav')]);
    expect(sav.code).toBe(3);
    expect(sav.stderr).toMatch(/survey\.sav: the SPSS file is shorter than its header/);
    expectClean(sav);
    // Stata, SAS transport and Parquet files are read too (test/io); damaged ones are refused naming the file.
    const damaged = [
      ['survey.dta', Buffer.from('<stata_dta><header><release>118</release>', 'latin1'), 'Stata'],
      ['old.dta', Buffer.from([114, 2, 1, 0, 5, 0, 10, 0]), 'Stata'],
      ['survey.xpt', Buffer.from('HEADER RECORD*******LIBRARY HEADER RECORD!!!!!!!000000000000000000000000000000  ', 'latin1'), 'SAS transport'],
      ['survey.parquet', Buffer.from('PAR1\x15\x04\x15', 'latin1'), 'Parquet'],
    ] as const;
    for (const [name, bytes, format] of damaged) {
      writeFileSync(join(dir, name), bytes);
      const r = custos(['inspect', join(dir, name)]);
      expect(r.code, name).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`${name.replace('.', '\\.')}: the ${format} file`));
      expectClean(r);
    }
    // SAS data sets are read (test/io/sas7bdat.test.ts); one cut inside its header is refused as one.
    writeFileSync(join(dir, 'survey.sas7bdat'), Buffer.concat([SAS7BDAT_MAGIC, Buffer.alloc(100)]));
    const sas7bdat = custos(['inspect', join(dir, 'survey.sas7bdat')]);
    expect(sas7bdat.code).toBe(3);
    expect(sas7bdat.stderr).toMatch(/survey\.sas7bdat: the SAS data set is shorter than its header/);
    expectClean(sas7bdat);
    // UTF-16 text holds NUL bytes and is still text.
    writeFileSync(join(dir, 'utf16.csv'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n1,2\n', 'utf16le')]));
    expect(custos(['inspect', join(dir, 'utf16.csv')]).code).toBe(0);
  });

  it('a NUL character in an output path is refused by the job schema (exit 2 naming the key), not by a stack trace', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: ADULT, delimiter: ';' }, attributes: { occupation: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, output: { dir: 'rel\u0000x' } }));
    const r = custos(['run', join(dir, 'job.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('custos: output.dir: a path cannot hold a NUL character\n');
  });

  it('a header without records exits 3 naming the file', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'empty.csv'), 'age;occupation\n');
    writeFileSync(join(dir, 'job.json'), job('empty.csv'));
    const r = custos(['run', join(dir, 'job.json')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/empty\.csv:2: the file has a header but no records/);
    expect(readdirSync(dir).sort()).toEqual(['empty.csv', 'job.json']);
  });
});

describe('hierarchy files are inputs too', () => {
  it('a hierarchy that is a folder or a FIFO exits 3 naming it, without blocking', () => {
    const dir = workdir();
    copyFileSync(ADULT, join(dir, 'adult.csv'));
    mkdirSync(join(dir, 'age-folder'));
    execFileSync('mkfifo', [join(dir, 'age-pipe.csv')]);
    for (const [hierarchy, message] of [['age-folder', /age-folder: it is a folder, not a file/], ['age-pipe.csv', /age-pipe\.csv: it is a named pipe \(FIFO\)/]] as const) {
      const method = { type: 'safe-k-anonymity', k: 5, sampling: 0.1, hierarchies: { age: hierarchy }, levels: { age: 1 } };
      writeFileSync(join(dir, 'job.json'), JSON.stringify({ ...JSON.parse(job('adult.csv')), method, output: { dir: 'out', formats: ['csv'] } }));
      const r = custos(['run', join(dir, 'job.json')]);
      expect(r.code, hierarchy).toBe(3);
      expect(r.stderr).toMatch(message);
      expectClean(r);
      expect(r.ms).toBeLessThan(15_000);
    }
    expect(readdirSync(dir).sort()).toEqual(['adult.csv', 'age-folder', 'age-pipe.csv', 'job.json']);
  });
});

describe('job values that cannot work', () => {
  it('a quote or a line break as input or output delimiter exits 2 naming the key', () => {
    const dir = workdir();
    copyFileSync(ADULT, join(dir, 'adult.csv'));
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ input: { path: 'adult.csv', delimiter: '"' } }, /input\.delimiter/],
      [{ input: { path: 'adult.csv', delimiter: '\n' } }, /input\.delimiter/],
      [{ input: { path: 'adult.csv', delimiter: ';' }, output: { delimiter: '"' } }, /output\.delimiter/],
      [{ input: { path: 'adult.csv', delimiter: ';' }, output: { delimiter: '\r' } }, /output\.delimiter/],
    ];
    for (const [extra, key] of bad) {
      writeFileSync(join(dir, 'job.json'), JSON.stringify({ ...JSON.parse(job('adult.csv')), ...extra }));
      const r = custos(['run', join(dir, 'job.json')]);
      expect(r.code, JSON.stringify(extra)).toBe(2);
      expect(r.stderr).toMatch(key);
      expectClean(r);
    }
    const flag = custos(['inspect', ADULT, '--delimiter', '"']);
    expect(flag.code).toBe(2);
    expectClean(flag);
    expect(readdirSync(dir).sort()).toEqual(['adult.csv', 'job.json']);
  });

  it('a number that is not finite (1e309) exits 2 naming the key', () => {
    const dir = workdir();
    copyFileSync(ADULT, join(dir, 'adult.csv'));
    writeFileSync(join(dir, 'job.json'), job('adult.csv').replace('"retention":0.5', '"retention":0.5,"epsilon":1e309'));
    const r = custos(['run', join(dir, 'job.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/method\.epsilon: must be a finite number/);
    expect(readdirSync(dir).sort()).toEqual(['adult.csv', 'job.json']);
  });

  it('a 50 MB job file and a 10M-deep nesting are refused at once', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'big.json'), Buffer.alloc(50 * 1024 * 1024, 0x20));
    const big = custos(['run', join(dir, 'big.json')]);
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/more than the 4 MiB a job can have/);
    writeFileSync(join(dir, 'deep.json'), '['.repeat(10_000_000) + ']'.repeat(10_000_000));
    const deep = custos(['run', join(dir, 'deep.json')]);
    expect(deep.code).toBe(2);
    expect(deep.stderr).toMatch(/nests deeper than|more than the 4 MiB/);
    expectClean(deep);
    // Within the size limit, the depth is what refuses it.
    writeFileSync(join(dir, 'deep2.json'), '{"version":1,"input":' + '['.repeat(1_000_000) + ']'.repeat(1_000_000) + '}');
    const deep2 = custos(['run', join(dir, 'deep2.json')]);
    expect(deep2.code).toBe(2);
    expect(deep2.stderr).toMatch(/nests deeper than 32 levels/);
    expect(big.ms + deep.ms).toBeLessThan(15_000);
  });

  it('an output folder that cannot be made exits 2 naming the key; nothing is written', () => {
    const dir = workdir();
    copyFileSync(ADULT, join(dir, 'adult.csv'));
    writeFileSync(join(dir, 'afile'), 'a file');
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ ...JSON.parse(job('adult.csv')), output: { dir: 'afile/out', formats: ['csv'] } }));
    const r = custos(['run', join(dir, 'job.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/output\.dir: .*afile is a file, not a folder/);
    expect(readdirSync(dir).sort()).toEqual(['adult.csv', 'afile', 'job.json']);
  });
});

describe('folders that cannot take a release', () => {
  it('an output folder that is a dangling link exits 2 naming output.dir before any work; nothing is written', () => {
    const dir = workdir();
    copyFileSync(ADULT, join(dir, 'adult.csv'));
    symlinkSync(join(dir, 'gone', 'release'), join(dir, 'release'));
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ ...JSON.parse(job('adult.csv')), output: { dir: 'release', formats: ['csv'] } }));
    const r = custos(['run', join(dir, 'job.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/output\.dir: .*release is a symbolic link to .*gone.*which does not exist/);
    expectClean(r);
    expect(readdirSync(dir).sort()).toEqual(['adult.csv', 'job.json', 'release']);
  });

  it('a file system refusal while writing (disk full, read-only, permissions) is plain words and exit 1, never a stack', () => {
    const cases: [string, string, RegExp][] = [
      ['ENOSPC', 'write', /cannot write .*release\.csv: the disk is full; nothing was written/],
      ['EROFS', 'mkdir', /cannot write .*release\.csv: the file system is read-only/],
      ['EACCES', 'open', /cannot write .*release\.csv: permission denied: you may not write into this folder/],
      ['EACCES', 'scandir', /cannot read .*release\.csv: permission denied: the file cannot be read/],
    ];
    for (const [code, syscall, message] of cases) {
      const error = Object.assign(new Error(`${code}: ${syscall} failed`), { code, syscall, path: '/data/.release.custos-tmp-1/release.csv' });
      const failure = describeFailure(error);
      expect(failure.kind, code).toBe('internal');
      expect(failure.message).toMatch(message);
      expect(failure.message).not.toMatch(/\n\s+at /);
    }
  });

  it.skipIf(process.getuid?.() === 0)('an input without read permission exits 3 in plain words (not as root: root reads anything)', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'locked.csv'), 'age;occupation\n30;x\n');
    chmodSync(join(dir, 'locked.csv'), 0o000);
    const r = custos(['inspect', join(dir, 'locked.csv')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/locked\.csv: cannot open the file: permission denied/);
    expectClean(r);
  });
});

describe('wide files', () => {
  it('cost memory in proportion to their cells: 10,000 columns × 5 rows stay small', async () => {
    const { readTable } = await import('../src/io/input/read-table.js');
    const dir = workdir();
    const columns = 10_000;
    const lines = [Array.from({ length: columns }, (_, i) => `c${i}`).join(',')];
    for (let r = 0; r < 5; r++) lines.push(Array.from({ length: columns }, (_, i) => String((i * r) % 7)).join(','));
    writeFileSync(join(dir, 'wide.csv'), lines.join('\n') + '\n');
    const before = process.memoryUsage().arrayBuffers;
    const imported = readTable(join(dir, 'wide.csv'), { missing: [''], onBadRow: 'error' });
    const grown = process.memoryUsage().arrayBuffers - before;
    expect(imported.table.columns).toHaveLength(columns);
    // Column buffers preallocated for 65,536 rows cost 2.6 GB here; a few bytes per cell is what the data needs.
    expect(grown).toBeLessThan(100 * 1024 * 1024);
  });

  it('a table wider than 100,000 columns is refused naming the file and the limit, before its columns cost memory', async () => {
    const dir = workdir();
    // 1.2 MB of header declaring 100,001 columns: at about a kilobyte each before any cell, a few MB more would be gigabytes.
    const width = 100_001;
    writeFileSync(join(dir, 'wide.csv'), Array.from({ length: width }, (_, i) => `c${i}`).join(',') + '\n' + '1,'.repeat(width - 1) + '1\n');
    const r = custos(['inspect', join(dir, 'wide.csv')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/wide\.csv:1:100001: a record has more than 100,000 fields; Custos reads at most 100,000 columns/);
    expectClean(r);
    // Every format's reader meets the same limit (here an SPSS file, read through the same table builder).
    const { writeSav } = await import('../src/io/output/sav-writer.js');
    const { readTable } = await import('../src/io/input/read-table.js');
    const columns = Array.from({ length: width }, (_, j) => ({ name: `v${j}`, dictionary: ['', '1'], codes: Uint32Array.of(1), via: null, numeric: false }));
    const { compactReleaseTable } = await import('../src/io/output/release-table.js');
    writeSav(join(dir, 'wide.sav'), compactReleaseTable({ rowCount: 1, columns }), () => undefined, new Date(0));
    expect(() => readTable(join(dir, 'wide.sav'), { missing: [''], onBadRow: 'error' })).toThrow(/^wide\.sav: the table has 100,001 columns; Custos reads at most 100,000$/);
    // A Parquet file that is only a footer declaring the columns (and no rows) is refused before its schema is built.
    const { writeMetadata } = await import('hyparquet-writer/src/metadata.js');
    const { ByteWriter } = await import('hyparquet-writer/src/bytewriter.js');
    const footer = new ByteWriter();
    footer.appendBytes(new TextEncoder().encode('PAR1'));
    const start = footer.offset;
    const schema = [{ name: 'root', num_children: width }, ...Array.from({ length: width }, (_, i) => ({ name: `c${i}`, type: 'INT32' as const, repetition_type: 'OPTIONAL' as const }))];
    writeMetadata(footer, { version: 2, schema, num_rows: 0n, row_groups: [], metadata_length: 0 });
    footer.appendUint32(footer.offset - start);
    footer.appendBytes(new TextEncoder().encode('PAR1'));
    writeFileSync(join(dir, 'wide.parquet'), Buffer.from(footer.getBuffer()));
    expect(() => readTable(join(dir, 'wide.parquet'), { missing: [''], onBadRow: 'error' })).toThrow(/^wide\.parquet: the table has 100,001 columns; Custos reads at most 100,000$/);
  });

  it('a header of 300,000 columns is summarised by inspect, not a stack overflow', async () => {
    const { inspectText } = await import('../src/cli/summaries.js');
    const columns = Array.from({ length: 300_000 }, (_, i) => ({ name: `c${i}`, type: 'text', distinct: 1, missing: 0 }));
    // Only what the summary reads of a table: its row count and its columns' names and counts.
    const imported = { table: { rowCount: 1, columns }, format: 'csv', rejectedRows: [], rejectedRowCount: 0 } as unknown as ImportedTable;
    const text = inspectText('wide.csv', imported);
    expect(text.startsWith('wide.csv: 1 rows, 300000 columns')).toBe(true);
    expect(text).toContain('  c299999 ');
  });

  it('an XLSX release wider than Excel allows exits 2 naming the limit, before any work', () => {
    const dir = workdir();
    const columns = 16_400;
    const header = Array.from({ length: columns }, (_, i) => `c${i}`);
    const lines = [header.join(','), ...Array.from({ length: 3 }, (_, r) => header.map((_, i) => String((i + r) % 3)).join(','))];
    writeFileSync(join(dir, 'wide.csv'), lines.join('\n') + '\n');
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'wide.csv' }, attributes: { c0: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { c0: 'from-data' } }, output: { formats: ['csv', 'xlsx'] } }));
    const r = custos(['run', join(dir, 'job.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/output\.formats: .*at most 16,384/);
    expect(readdirSync(dir).sort()).toEqual(['job.json', 'wide.csv']);
    // Noisy counts release their answers, not the input's columns: the same file may go to a workbook.
    writeFileSync(join(dir, 'counts.json'), JSON.stringify({ version: 1, input: { path: 'wide.csv' }, method: { type: 'dp-counts', queries: 'marginals', columns: ['c0', 'c1'], epsilon: 1, domains: { c0: 'from-data', c1: 'from-data' } }, output: { dir: 'counts', formats: ['xlsx'], report: ['json'] } }));
    const counts = custos(['run', join(dir, 'counts.json')]);
    expect(counts.code, counts.stderr).toBe(0);
  });
});

describe('a very long column name', () => {
  it('is cut in the PDF only (PDFKit breaks a long word in quadratic time), kept whole in the CSV and the JSON report', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-long-name-'));
    const name = 'L'.repeat(20_000);
    const rows = Array.from({ length: 300 }, (_, i) => `${20 + (i % 40)},${i % 2 ? 'F' : 'M'},d${i % 3}`);
    writeFileSync(join(dir, 'in.csv'), [`age,${name},diagnosis`, ...rows].join('\n') + '\n');
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'in.csv' }, attributes: { diagnosis: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, output: { dir: 'out', formats: ['csv'], report: ['json', 'pdf'] }, review: ACCEPT_REVIEW }));
    const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json')], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(dir, 'out', 'release.csv'), 'utf8')).toContain(name);
    expect(readFileSync(join(dir, 'out', 'report.json'), 'utf8')).toContain(name);
    expect(clip(`a ${'L'.repeat(500)} b`)).toBe(`a ${'L'.repeat(80)}… b`);
    // inspect aligns up to 40 characters: the long name's own line is long, no other line is padded to it.
    const inspect = spawnSync(process.execPath, [CLI, 'inspect', join(dir, 'in.csv')], { encoding: 'utf8' });
    expect(inspect.status).toBe(0);
    expect(inspect.stdout.split('\n').filter((line) => line.length > 200)).toHaveLength(1);
    expect(clip('x'.repeat(10_000)).length).toBeLessThan(100);
  }, 90_000);
});

describe('job files as editors save them', () => {
  it('takes a byte-order mark, and places a JSON error at its line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-job-text-'));
    const job = { version: 1, input: { path: ADULT, delimiter: ';' }, attributes: { occupation: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } } };
    writeFileSync(join(dir, 'bom.json'), `\uFEFF${JSON.stringify(job)}`);
    const ok = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'bom.json')], { encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    writeFileSync(join(dir, 'bad.json'), '{\n  "version": 1,\n  "input": { "path": "x.csv", }\n}\n');
    const bad = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'bad.json')], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json:3:31 is not valid JSON/);
  });
});
