/**
 * Only released values leave. A canary record whose values appear nowhere else in the input is
 * planted; each method below suppresses it, does not sample it, or aggregates it away. Whatever the
 * output format (CSV, workbook, Parquet, SPSS, Stata, HTML, PDF, JSON), no byte of the release
 * folder may hold one of its values: a writer that formats a whole dictionary (the workbook's shared
 * strings, a Parquet dictionary page, value labels) would publish a record the method withheld.
 * Every file is read the way a person or a script would: zip parts inflated, Parquet pages decoded,
 * the PDF's text and raw strings. For the methods that publish every record (randomized response,
 * reconstruction privacy, β-privacy) the canary is its value in the sensitive column: outside a
 * declared domain it is refused with nothing written, and "from-data" publishes its warning.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { inflateRawSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { parquetSearchableText } from '../src/io/input/parquet-reader.js';

const CLI = resolve('dist/cli/custos.mjs');
const require = createRequire(import.meta.url);
const XLSX = require('xlsx') as typeof import('xlsx');

const ROWS = 600;
/** The canary's values: each appears in no other record. */
const CANARY = { id: 'CANARY-ID-7731', age: '97', zip: '73519', note: 'CANARY-NOTE-QXZ', income: '9876543', occupation: 'Canary-Occupation-Wq' };

function writeInput(path: string): void {
  const sexes = ['F', 'M'];
  const educations = ['Primary', 'Secondary', 'Bachelors', 'Masters'];
  const occupations = ['Clerical', 'Sales', 'Craft', 'Service'];
  const lines = ['id,age,sex,zip,education,note,income,occupation'];
  let state = 987654;
  const next = (m: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * m);
  };
  for (let i = 0; i < ROWS; i++) {
    if (i === 300) {
      lines.push([CANARY.id, CANARY.age, 'F', CANARY.zip, 'Masters', CANARY.note, CANARY.income, CANARY.occupation].join(','));
      continue;
    }
    // Ages 20-59 and zips 10000-10975 never meet the canary's; notes and incomes come from small sets.
    lines.push([`id-${100000 + i}`, 20 + next(40), sexes[next(2)], 10000 + next(40) * 25, educations[next(4)], `note ${next(5)}`, 1000 * (20 + next(30)), occupations[next(4)]].join(','));
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

const hierarchies = { zip: { type: 'masking', length: 5 }, age: { type: 'interval', widths: [10, 20, 40] } };
const recodingAttributes = { id: 'identifier', age: 'quasi-identifier', sex: 'insensitive', zip: 'quasi-identifier', education: 'insensitive', note: 'insensitive', income: 'insensitive', occupation: 'insensitive' };

/** Safe k-anonymity forms its classes over every released column: the wide ones are removed, so classes of k exist and the note is the canary it must withhold. */
const safeKAttributes = { ...recodingAttributes, sex: 'identifier', education: 'identifier', income: 'identifier', occupation: 'identifier' };

interface CanaryCase {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly method: Record<string, unknown>;
  /** The canary's values that must appear in no released byte. */
  readonly hidden: readonly string[];
}

const ALL = [CANARY.id, CANARY.zip, CANARY.note, CANARY.income, CANARY.occupation];

const CASES: readonly CanaryCase[] = [
  // One unique record of 600 under a 5 % limit: suppressed rather than every record generalized.
  { name: 'global-recoding', attributes: recodingAttributes, method: { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 3 }], suppressionLimit: 0.05, hierarchies }, hidden: ALL },
  { name: 'partitioned-recoding', attributes: recodingAttributes, method: { type: 'partitioned-recoding', parts: 2, model: { type: 'k-anonymity', k: 3 }, hierarchies, levels: { zip: 4, age: 2 } }, hidden: ALL },
  { name: 'safe-k-anonymity', attributes: safeKAttributes, method: { type: 'safe-k-anonymity', k: 3, sampling: 0.5, epsilon: 1, hierarchies, levels: { zip: 4, age: 2 } }, hidden: ALL },
  { name: 'safe-k-anonymity (private search)', attributes: safeKAttributes, method: { type: 'safe-k-anonymity', k: 3, sampling: 0.5, epsilon: 1, hierarchies, levels: 'search' }, hidden: ALL },
  {
    name: 'dp-counts', attributes: { id: 'identifier' },
    method: { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex', 'education'], domains: { sex: ['F', 'M'], education: ['Primary', 'Secondary', 'Bachelors', 'Masters'] } },
    hidden: ALL,
  },
  // The canary's income is averaged with its group's; its identifier, note and occupation are removed.
  { name: 'microaggregation', attributes: { id: 'identifier', note: 'identifier', occupation: 'identifier' }, method: { type: 'microaggregation', columns: ['income'], k: 3 }, hidden: [CANARY.id, CANARY.note, CANARY.income, CANARY.occupation] },
];

/** Every readable form of a release file, as text. */
function texts(path: string): string[] {
  const bytes = readFileSync(path);
  if (path.endsWith('.xlsx')) return [bytes.toString('latin1'), ...zipParts(bytes)];
  if (path.endsWith('.parquet')) return [bytes.toString('latin1'), parquetSearchableText(path)];
  if (path.endsWith('.pdf')) {
    const r = spawnSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
    expect(r.status, `pdftotext ${path}`).toBe(0);
    return [bytes.toString('latin1'), r.stdout];
  }
  return [bytes.toString('utf8'), bytes.toString('latin1')];
}

/** Every part of a zip, inflated from the local file headers (any part a reader would skip included). */
function zipParts(bytes: Buffer): string[] {
  const out: string[] = [];
  for (let at = bytes.indexOf('PK\x03\x04', 0, 'latin1'); at >= 0; at = bytes.indexOf('PK\x03\x04', at + 4, 'latin1')) {
    const method = bytes.readUInt16LE(at + 8);
    const nameLength = bytes.readUInt16LE(at + 26);
    const extraLength = bytes.readUInt16LE(at + 28);
    const start = at + 30 + nameLength + extraLength;
    const name = bytes.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    if (method === 0) out.push(bytes.subarray(start).toString('utf8'));
    else if (method === 8) out.push(inflateRawSync(bytes.subarray(start), { finishFlush: 2 }).toString('utf8'));
    else throw new Error(`zip part ${name} uses method ${method}`);
  }
  expect(out.length, 'a workbook has parts').toBeGreaterThan(3);
  return out;
}

describe('a record the method withholds leaves no value in any released byte, in every format', () => {
  const root = mkdtempSync(join(tmpdir(), 'custos-release-canary-'));
  const input = join(root, 'register.csv');

  beforeAll(() => writeInput(input));

  for (const c of CASES) {
    it(c.name, () => {
      const work = join(root, c.name.replace(/\W+/g, '-'));
      mkdirSync(work);
      const job = { version: 1, input: { path: input }, attributes: c.attributes, method: c.method, output: { dir: 'release', formats: ['csv', 'xlsx', 'parquet', 'sav', 'dta'], report: ['html', 'pdf', 'json'] } };
      writeFileSync(join(work, 'job.json'), JSON.stringify(job));
      const env: NodeJS.ProcessEnv = { ...process.env };
      delete env['CUSTOS_TEST_RANDOMNESS'];
      const r = spawnSync(process.execPath, [CLI, 'run', join(work, 'job.json'), '--json', '--test-seed', '11'], { encoding: 'utf8', env: { ...env, CUSTOS_TEST_RANDOMNESS: '1' } });
      expect(r.status, r.stderr + r.stdout).toBe(0);
      const release = join(work, 'release');
      const files = readdirSync(release);
      for (const format of ['xlsx', 'parquet', 'sav', 'dta', 'html', 'pdf', 'json']) expect(files.some((f) => f.endsWith(`.${format}`)), format).toBe(true);
      // The premise: the canary's row is not among the released rows (else the case tests nothing).
      const csv = files.filter((f) => f.endsWith('.csv')).map((f) => readFileSync(join(release, f), 'utf8')).join('\n');
      for (const value of c.hidden) expect(csv.includes(value), `${value} in the released CSV`).toBe(false);
      const leaks: string[] = [];
      for (const name of files) for (const text of texts(join(release, name))) for (const value of c.hidden) if (text.includes(value)) leaks.push(`${name}: ${value}`);
      expect([...new Set(leaks)]).toEqual([]);
      // The positive control: the same search finds the canary in the input the run read.
      expect(texts(input).some((t) => c.hidden.every((v) => t.includes(v)))).toBe(true);
    });
  }

  /**
   * Randomized response, reconstruction privacy and β-privacy publish every record's other columns as
   * they are, so the canary to withhold is its value in the sensitive column. With a declared domain
   * that leaves it out, the run is refused (exit 3) and writes nothing: a value outside the domain is
   * never mapped onto a declared one, nor published. With "from-data" chosen on purpose the value is
   * part of the domain, and every rendering of the published report carries the warning.
   */
  const sensitiveCases: readonly { readonly name: string; readonly method: Record<string, unknown> }[] = [
    { name: 'uniform-perturbation', method: { type: 'uniform-perturbation', retention: 0.5 } },
    { name: 'reconstruction-privacy', method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 } },
    { name: 'beta-privacy', method: { type: 'beta-privacy', beta: { coefficient: 4 }, maxBucket: 200 } },
  ];
  const sensitiveAttributes = { id: 'identifier', note: 'identifier', income: 'identifier', zip: 'identifier', age: 'quasi', sex: 'quasi', education: 'quasi', occupation: 'sensitive' };
  const runCase = (name: string, method: Record<string, unknown>) => {
    const work = join(root, name);
    mkdirSync(work);
    const job = { version: 1, input: { path: input }, attributes: sensitiveAttributes, method, output: { dir: 'release', formats: ['csv', 'xlsx', 'parquet', 'sav', 'dta'], report: ['html', 'pdf', 'json'] } };
    writeFileSync(join(work, 'job.json'), JSON.stringify(job));
    const r = spawnSync(process.execPath, [CLI, 'run', join(work, 'job.json'), '--json', '--test-seed', '11'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
    return { r, work, release: join(work, 'release') };
  };
  for (const c of sensitiveCases) {
    it(`${c.name}: a sensitive value outside the declared domain is refused, never released; "from-data" publishes its warning in every rendering`, () => {
      const declared = runCase(`${c.name}-declared`, { ...c.method, domains: { occupation: ['Clerical', 'Sales', 'Craft', 'Service', 'Teaching'] } });
      expect(declared.r.status, declared.r.stderr).toBe(3);
      expect(JSON.parse(declared.r.stdout).error.message).toMatch(new RegExp(`1 record\\(s\\) of "occupation" hold a value outside its declared domain \\("${CANARY.occupation}"\\)`));
      expect(readdirSync(declared.work)).toEqual(['job.json']);
      const fromData = runCase(`${c.name}-from-data`, { ...c.method, domains: { occupation: 'from-data' } });
      expect(fromData.r.status, fromData.r.stderr).toBe(0);
      const warning = /The domain of “occupation” was taken from the values present in the input, not declared/;
      const report = JSON.parse(readFileSync(join(fromData.release, 'report.json'), 'utf8')) as { warnings: string[] };
      expect(report.warnings.join(' ')).toMatch(warning);
      expect(texts(join(fromData.release, 'report.html')).some((t) => warning.test(t))).toBe(true);
      expect(texts(join(fromData.release, 'report.pdf')).some((t) => /taken from the values present in the input/.test(t.replace(/\s+/g, ' ')))).toBe(true);
    });
  }

  it('the search finds a value in a workbook part that no sheet cell shows (positive control of zipParts)', () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['a'], ['b']]), 'S');
    book.Props = { Title: CANARY.note };
    const path = join(root, 'control.xlsx');
    XLSX.writeFile(book, path, { compression: true });
    expect(texts(path).some((t) => t.includes(CANARY.note))).toBe(true);
  });
});
