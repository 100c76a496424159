/**
 * The tamper suite of issue 31: a dishonest custodian or insider changes a release folder, then
 * re-hashes the manifest and report.json (and so also output.files) so that only verify's content
 * checks can tell. Verify is run on the release folder alone (no internal folder beside it). Every
 * tampered release must fail, naming the check that caught it; the untampered ones pass.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ZipArchive } from 'archiver';
import { createWriteStream } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { zipEntries, zipEntryText } from '../src/jobs/verify/stored-types.js';
import { rehashRelease, type Listing } from './insider-rehash.js';

const CLI = resolve('dist/cli/custos.mjs');

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

function custos(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const env = { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' };
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function verify(dir: string): { code: number; failed: Check[] } {
  const r = custos(['verify', dir, '--json', '--accept-test-randomness'], dir);
  expect(r.stderr).toBe('');
  return { code: r.code, failed: (JSON.parse(r.stdout) as { checks: Check[] }).checks.filter((c) => !c.ok) };
}

const INPUT = ['region,age,note,occupation', ...Array.from({ length: 80 }, (_, i) => `r${i % 5},${20 + (i % 40)},${['plain', '=1+2', ' padded  ', '@x', '\ufeffbom'][i % 5]},${['a', 'b', 'c', 'd'][i % 4]}`)].join('\n');
const SECRET = 'the whole confidential input, smuggled';

let work: string;
let release: string;
let recoded: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'custos-tamper-'));
  writeFileSync(join(work, 'input.csv'), INPUT);
  writeFileSync(join(work, 'age.csv'), Array.from({ length: 40 }, (_, i) => `${20 + i};${20 + i - (i % 10)}-${29 + i - (i % 10)};*`).join('\n'));
  const jobs = {
    all: { attributes: { occupation: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, output: { dir: 'all', formats: ['csv', 'parquet', 'sav', 'dta', 'xlsx'], report: ['html', 'pdf', 'json'] } },
    recoded: { attributes: { region: 'insensitive', age: 'quasi', note: 'insensitive', occupation: 'insensitive' }, method: { type: 'global-recoding', hierarchies: { age: 'age.csv' }, models: [{ type: 'k-anonymity', k: 3 }], suppressionLimit: 0.1 }, output: { dir: 'recoded', formats: ['csv', 'xlsx'], report: ['html', 'json'] } },
  };
  for (const [name, job] of Object.entries(jobs)) {
    writeFileSync(join(work, `${name}.json`), JSON.stringify({ version: 1, input: { path: 'input.csv' }, ...job }));
    const r = custos(['run', `${name}.json`, '--test-seed', '7'], work);
    expect(r.code, r.stderr + r.stdout).toBe(0);
  }
  release = join(work, 'all');
  recoded = join(work, 'recoded');
}, 240_000);

let copies = 0;
/** A copy of a release folder alone (no internal folder beside it). */
function copyOf(dir: string): string {
  const target = join(work, `copy-${copies++}`);
  cpSync(dir, target, { recursive: true });
  return target;
}

function tamper(dir: string, file: string, edit: (bytes: Buffer) => Buffer): void {
  writeFileSync(join(dir, file), edit(readFileSync(join(dir, file))));
  rehashRelease(dir, [file]);
}

function expectCaught(dir: string, check: RegExp): Check[] {
  const v = verify(dir);
  expect(v.code, JSON.stringify(v.failed)).toBe(1);
  expect(v.failed.map((c) => c.name), JSON.stringify(v.failed)).toContainEqual(expect.stringMatching(check));
  return v.failed;
}

// Each verify writes a release of every format again: slow on a loaded machine.
describe('verify with the release folder alone', { timeout: 240_000 }, () => {
  it('the untampered releases pass (every format, both report renderings, a recoding)', () => {
    for (const dir of [copyOf(release), copyOf(recoded)]) expect(verify(dir)).toEqual({ code: 0, failed: [] });
  }, 120_000);

  it('an extra file listed in manifest.json (the input plus one byte) fails', () => {
    const dir = copyOf(release);
    writeFileSync(join(dir, 'notes.txt'), `${INPUT}!`);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Listing;
    manifest.files.push({ name: 'notes.txt', sha256: createHash('sha256').update(`${INPUT}!`).digest('hex'), bytes: Buffer.byteLength(`${INPUT}!`) });
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    const failed = expectCaught(dir, /^files of this release$/);
    expect(failed.find((c) => c.name === 'files of this release')!.detail).toContain('not a file this job and method write: notes.txt');
  });

  it('a manifest listing the same file twice fails', () => {
    const dir = copyOf(release);
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Listing;
    manifest.files.push(manifest.files[0]!);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    const failed = expectCaught(dir, /^files of this release$/);
    expect(failed.find((c) => c.name === 'files of this release')!.detail).toMatch(/lists release\.csv more than once/);
  });

  it('the input in an HTML comment of report.html fails', () => {
    const dir = copyOf(release);
    tamper(dir, 'report.html', (b) => Buffer.from(b.toString('utf8').replace('</main>', `<!-- ${INPUT} --></main>`)));
    expectCaught(dir, /^report\.html written again$/);
  });

  it("report.html's guarantee sentence edited to claim differential privacy fails", () => {
    const dir = copyOf(release);
    const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { guarantee: { statement: string } };
    tamper(dir, 'report.html', (b) => {
      const html = b.toString('utf8');
      const statement = html.includes(report.guarantee.statement) ? report.guarantee.statement : html.match(/<p[^>]*>([^<]{40,})<\/p>/)![1]!;
      return Buffer.from(html.replace(statement, 'The release is ε-differentially private with ε = 0.1.'));
    });
    expectCaught(dir, /^report\.html written again$/);
  });

  it('a free-text field added to report.json fails', () => {
    const dir = copyOf(release);
    tamper(dir, 'report.json', (b) => Buffer.from(JSON.stringify({ ...JSON.parse(b.toString('utf8')), notes: SECRET }, null, 2) + '\n'));
    expectCaught(dir, /^report schema$/);
  });

  it("report.json's statement and summary edited (the renderings left as the run wrote them) fail", () => {
    const dir = copyOf(release);
    tamper(dir, 'report.json', (b) => {
      const report = JSON.parse(b.toString('utf8'));
      report.guarantee.statement = `${report.guarantee.statement} ${SECRET}`;
      report.summary = [...report.summary, SECRET];
      return Buffer.from(JSON.stringify(report, null, 2) + '\n');
    });
    const failed = expectCaught(dir, /^report\.html written again$/).map((c) => c.name);
    expect(failed).toEqual(expect.arrayContaining(['report.pdf written again', 'release.xlsx written again']));
  });

  it("a row count in report.json's output.files that its table does not hold fails", () => {
    const dir = copyOf(release);
    tamper(dir, 'report.json', (b) => {
      const report = JSON.parse(b.toString('utf8'));
      report.output.files[0].rows += 1;
      return Buffer.from(JSON.stringify(report, null, 2) + '\n');
    });
    expectCaught(dir, /^report\.json's output\.files$/);
  });

  it('bytes appended to release.dta or report.pdf fail', () => {
    for (const file of ['release.dta', 'report.pdf']) {
      const dir = copyOf(release);
      tamper(dir, file, (b) => Buffer.concat([b, Buffer.from(SECRET)]));
      const failed = expectCaught(dir, new RegExp(`^${file.replace('.', '\\.')} written again$`));
      expect(failed.find((c) => c.name === `${file} written again`)!.detail).toMatch(/bytes more, after byte/);
    }
  });

  it('data inserted before the Parquet footer fails', () => {
    const dir = copyOf(release);
    tamper(dir, 'release.parquet', (b) => {
      const footer = b.readUInt32LE(b.length - 8);
      const at = b.length - 8 - footer;
      return Buffer.concat([b.subarray(0, at), Buffer.from(SECRET), b.subarray(at)]);
    });
    expectCaught(dir, /^release\.parquet written again$/);
  });

  it('an extra zip part in release.xlsx fails, naming the part', async () => {
    const dir = copyOf(release);
    const original = readFileSync(join(dir, 'release.xlsx'));
    const zip = new ZipArchive({});
    const out = join(dir, 'release.xlsx');
    const done = new Promise<void>((ok, fail) => {
      const stream = createWriteStream(out);
      stream.on('close', () => ok());
      stream.on('error', fail);
      zip.pipe(stream);
    });
    for (const entry of zipEntries(original)) zip.append(zipEntryText(original, entry), { name: entry.name });
    zip.append(SECRET, { name: 'xl/notes.xml' });
    await zip.finalize();
    await done;
    rehashRelease(dir, ['release.xlsx']);
    const failed = expectCaught(dir, /^release\.xlsx written again$/);
    expect(failed.find((c) => c.name === 'release.xlsx written again')!.detail).toContain('xl/notes.xml');
  });

  it('an extra shared string in release.xlsx (a value no released record carries) fails, saying so', async () => {
    const dir = copyOf(release);
    const original = readFileSync(join(dir, 'release.xlsx'));
    const zip = new ZipArchive({});
    const done = new Promise<void>((ok) => {
      const stream = createWriteStream(join(dir, 'release.xlsx'));
      stream.on('close', () => ok());
      zip.pipe(stream);
    });
    for (const entry of zipEntries(original)) {
      let text = zipEntryText(original, entry);
      if (entry.name === 'xl/sharedStrings.xml') text = text.replace(/uniqueCount="(\d+)">/, (_, n: string) => `uniqueCount="${Number(n) + 1}">`).replace('</sst>', `<si><t>${SECRET}</t></si></sst>`);
      zip.append(text, { name: entry.name });
    }
    await zip.finalize();
    await done;
    rehashRelease(dir, ['release.xlsx']);
    const failed = expectCaught(dir, /^release\.xlsx written again$/);
    expect(failed.find((c) => c.name === 'release.xlsx written again')!.detail).toContain('value(s) that no released record or report cell carries');
  });

  it('a document record or an extra value label in release.sav fails', () => {
    const end = (b: Buffer): number => {
      // The dictionary's end record (999, 0) follows the encoding record, the last Custos writes.
      const at = b.indexOf(Buffer.from([0xe7, 3, 0, 0, 0, 0, 0, 0]), b.indexOf('UTF-8', 176, 'latin1'));
      if (at < 0) throw new Error('no end record');
      return at;
    };
    const document = copyOf(release);
    tamper(document, 'release.sav', (b) => {
      const at = end(b);
      const line = Buffer.alloc(80, 0x20);
      line.write(SECRET, 'latin1');
      return Buffer.concat([b.subarray(0, at), Buffer.from(new Int32Array([6, 1]).buffer), line, b.subarray(at)]);
    });
    expectCaught(document, /^release\.sav written again$/);
    const label = copyOf(release);
    tamper(label, 'release.sav', (b) => {
      const at = end(b);
      const record = Buffer.alloc(4 + 4 + 8 + 8 + 4 + 4 + 4);
      record.writeInt32LE(3, 0);
      record.writeInt32LE(1, 4);
      record.writeDoubleLE(12345, 8);
      record[16] = 7;
      record.write('secret!', 17, 'latin1');
      record.writeInt32LE(4, 24);
      record.writeInt32LE(1, 28);
      record.writeInt32LE(2, 32);
      return Buffer.concat([b.subarray(0, at), record, b.subarray(at)]);
    });
    expect(verify(label).code).toBe(1);
  });

  it('an extra value label or a characteristic in release.dta fails', () => {
    const withInserted = (b: Buffer, before: string, inserted: Buffer): Buffer => {
      const at = b.indexOf(before, 0, 'latin1');
      // The map's offsets past the insertion move with it, as an insider who wants a readable file fixes them.
      const out = Buffer.concat([b.subarray(0, at), inserted, b.subarray(at)]);
      const map = out.indexOf('<map>', 0, 'latin1') + 5;
      for (let k = 0; k < 14; k++) {
        const offset = Number(out.readBigUInt64LE(map + 8 * k));
        if (offset >= at) out.writeBigUInt64LE(BigInt(offset + inserted.length), map + 8 * k);
      }
      return out;
    };
    const label = copyOf(release);
    tamper(label, 'release.dta', (b) => {
      const text = Buffer.from('secret\0', 'latin1');
      const table = Buffer.concat([Buffer.from(new Int32Array([1, text.length, 0, 12345]).buffer), text]);
      const name = Buffer.alloc(129);
      name.write('extra', 'latin1');
      const size = Buffer.alloc(4);
      size.writeInt32LE(table.length);
      return withInserted(b, '</value_labels>', Buffer.concat([Buffer.from('<lbl>', 'latin1'), size, name, Buffer.alloc(3), table, Buffer.from('</lbl>', 'latin1')]));
    });
    expectCaught(label, /^release\.dta written again$/);
    const characteristic = copyOf(release);
    tamper(characteristic, 'release.dta', (b) => {
      const names = Buffer.alloc(258);
      names.write('_dta', 0, 'latin1');
      names.write('note1', 129, 'latin1');
      const contents = Buffer.from(`${SECRET}\0`, 'latin1');
      const size = Buffer.alloc(4);
      size.writeUInt32LE(names.length + contents.length);
      return withInserted(b, '</characteristics>', Buffer.concat([Buffer.from('<ch>', 'latin1'), size, names, contents, Buffer.from('</ch>', 'latin1')]));
    });
    expectCaught(characteristic, /^release\.dta written again$/);
  });

  it('a recoded column rewritten in the CSV to values outside its hierarchy (the input\'s ages) fails', () => {
    const dir = copyOf(recoded);
    tamper(dir, 'release.csv', (b) => {
      const lines = b.toString('utf8').split('\r\n');
      const header = lines[0]!.split(',');
      const age = header.indexOf('age');
      return Buffer.from(lines.map((line, i) => {
        if (i === 0 || line === '') return line;
        const cells = line.split(',');
        cells[age] = String(20 + (i % 40));
        return cells.join(',');
      }).join('\r\n'));
    });
    expectCaught(dir, /^release\.xlsx written again$/);
  });

  it('a release of an earlier Custos (report schema custos.report/1) is named as such, not failed file by file', () => {
    const dir = copyOf(release);
    tamper(dir, 'report.json', (b) => Buffer.from(b.toString('utf8').replace('"schema": "custos.report/2"', '"schema": "custos.report/1"')));
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toContain('"schema": "custos.report/1"');
    const v = verify(dir);
    expect(v.code).toBe(1);
    expect(v.failed.map((c) => c.name)).toEqual(['release format']);
    expect(v.failed[0]!.detail).toMatch(/written by an earlier Custos \(report schema custos\.report\/1\).*verify it with the Custos that wrote it/);
  });
});
