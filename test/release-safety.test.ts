/**
 * What leaves the building: for every method, no file of the release folder —
 * read as text the way a person or a script would (CSV, the XML of every part of
 * the workbook, HTML, the PDF's text, JSON) — holds a canary planted in the
 * confidential input, the input's checksum, its path, or (for the
 * differentially private methods) its exact number of records. The internal
 * folder must hold the checksum and the path: the positive control that shows
 * the search would find them.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { parquetSearchableText } from '../src/io/input/parquet-reader.js';

const CLI = resolve('dist/cli/custos.mjs');
const require = createRequire(import.meta.url);
const XLSX = require('xlsx') as typeof import('xlsx');

/** An unusual size, so that finding it in a report is not a coincidence. */
const ROWS = 1237;
const SSN_CANARY = 'CANARY-SSN-4242-Q';
const ZIP_CANARY = '73519';
const FIRST_AGE = '97';

function pdfToTextAvailable(): boolean {
  return spawnSync('pdftotext', ['-v'], { encoding: 'utf8' }).error === undefined;
}

/** Deterministic rows; the first record is the unique one every canary is about. */
function writeInput(path: string): void {
  const sexes = ['F', 'M'];
  const educations = ['Primary', 'Secondary', 'Bachelors', 'Masters'];
  const occupations = ['Clerical', 'Sales', 'Craft', 'Service', 'Tech', 'Farming'];
  const lines = ['ssn,age,sex,zip,education,occupation,salary'];
  lines.push(`${SSN_CANARY},${FIRST_AGE},F,${ZIP_CANARY},Masters,Tech,>50K`);
  let state = 12345;
  const next = (m: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    // The high bits: an LCG's low bits cycle with a short period.
    return Math.floor((state / 2147483648) * m);
  };
  for (let i = 1; i < ROWS; i++) {
    // zips 10000–10999 never equal the canary; ages 20–79 never equal the first record's.
    lines.push([`ssn-${100000 + i}`, 20 + next(60), sexes[next(2)], 10000 + next(40) * 25, educations[next(4)], occupations[next(6)], next(3) === 0 ? '>50K' : '<=50K'].join(','));
  }
  writeFileSync(path, lines.join('\n') + '\n');
}

const anonymityHierarchies = { zip: { type: 'masking', length: 5 }, age: { type: 'interval', widths: [10, 20] } };
const rrAttributes = { ssn: 'identifier', zip: 'identifier', age: 'identifier', occupation: 'sensitive', salary: 'insensitive' };
const anonAttributes = { ssn: 'identifier', occupation: 'insensitive', salary: 'insensitive' };

interface MethodCase {
  readonly name: string;
  readonly dp: boolean;
  readonly attributes: Record<string, string>;
  readonly method: Record<string, unknown>;
}

const CASES: readonly MethodCase[] = [
  { name: 'uniform-perturbation', dp: false, attributes: rrAttributes, method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } } },
  { name: 'reconstruction-privacy', dp: false, attributes: rrAttributes, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } } },
  { name: 'beta-privacy', dp: false, attributes: { ...rrAttributes }, method: { type: 'beta-privacy', beta: { coefficient: 4 }, domains: { occupation: 'from-data' } } },
  {
    name: 'safe-k-anonymity', dp: true, attributes: anonAttributes,
    method: { type: 'safe-k-anonymity', k: 3, sampling: 0.5, epsilon: 1, hierarchies: anonymityHierarchies, levels: { zip: 3, age: 2 } },
  },
  {
    name: 'safe-k-anonymity (search)', dp: true, attributes: anonAttributes,
    method: { type: 'safe-k-anonymity', k: 3, sampling: 0.5, epsilon: 1, hierarchies: { zip: { type: 'masking', length: 5 }, age: { type: 'interval', widths: [10, 20] } }, levels: 'search' },
  },
  {
    name: 'partitioned-recoding', dp: false, attributes: anonAttributes,
    method: { type: 'partitioned-recoding', parts: 2, model: { type: 'k-anonymity', k: 3 }, hierarchies: anonymityHierarchies, levels: { zip: 3, age: 2 } },
  },
  {
    name: 'global-recoding', dp: false, attributes: anonAttributes,
    method: { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 3 }], suppressionLimit: 0.1, hierarchies: anonymityHierarchies },
  },
  {
    // Local suppression's comparison with record suppression counts the input's small classes: internal only.
    name: 'global-recoding (local suppression, journalist)', dp: false, attributes: anonAttributes,
    method: { type: 'global-recoding', models: [{ type: 'maximum-risk', risk: 0.25, attacker: 'journalist', samplingFraction: 0.5 }], localSuppression: { k: 4, importance: [{ column: 'age', weight: 2 }] }, hierarchies: anonymityHierarchies },
  },
  {
    name: 'dp-counts', dp: true, attributes: { ssn: 'identifier' },
    method: { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex', 'education'], domains: { sex: ['F', 'M'], education: ['Primary', 'Secondary', 'Bachelors', 'Masters'] } },
  },
];

/** Every readable form of a release file, as text. */
function texts(path: string): string[] {
  const bytes = readFileSync(path);
  if (path.endsWith('.xlsx')) {
    // The zip's parts as stored: shared strings, every sheet, document properties.
    const zip = XLSX.CFB.read(bytes, { type: 'buffer' });
    const entries = zip.FileIndex as readonly { type: number; content?: ArrayLike<number> }[];
    return entries.filter((e) => e.type === 2 && e.content).map((e) => Buffer.from(e.content as Uint8Array).toString('utf8'));
  }
  if (path.endsWith('.parquet')) {
    // The bytes as stored (footer, page headers, statistics) and every value, its pages being compressed.
    return [bytes.toString('utf8'), parquetSearchableText(path)];
  }
  if (path.endsWith('.pdf')) {
    const r = spawnSync('pdftotext', ['-enc', 'UTF-8', path, '-'], { encoding: 'utf8' });
    return [bytes.toString('latin1'), r.stdout ?? ''];
  }
  return [bytes.toString('utf8')];
}

function countPattern(n: number): RegExp {
  return new RegExp(`(?<![\\d.,])(${n}|${n.toLocaleString('en-US').replace(',', '\\,')})(?![\\d]|[.,]\\d)`);
}

describe('the release folder holds no confidential fact, for every method', () => {
  const root = mkdtempSync(join(tmpdir(), 'custos-canary-'));
  const secretFolder = join(root, 'secret-input-folder');
  const input = join(secretFolder, 'patients-hiv-register.csv');
  let inputSha = '';
  const pdf = pdfToTextAvailable();

  beforeAll(() => {
    mkdirSync(secretFolder);
    writeInput(input);
    // A hierarchy beside the input, named by its absolute path: its folder must not reach the release either.
    writeFileSync(join(secretFolder, 'edu-levels-hiv-register.csv'), 'Primary;School;*\nSecondary;School;*\nBachelors;Degree;*\nMasters;Degree;*\n');
    inputSha = createHash('sha256').update(readFileSync(input)).digest('hex');
  });

  it('has pdftotext to read the PDF reports (CI installs poppler-utils)', () => {
    // A missing tool must fail CI, not quietly skip the PDF half of the check.
    if (process.env.CI) expect(pdf).toBe(true);
  });

  for (const c of CASES) {
    it(c.name, () => {
      const work = join(root, c.name.replace(/\W+/g, '-'));
      mkdirSync(work);
      const job = {
        version: 1,
        input: { path: input },
        attributes: c.attributes,
        method: 'hierarchies' in c.method ? { ...c.method, hierarchies: { ...(c.method['hierarchies'] as object), education: join(secretFolder, 'edu-levels-hiv-register.csv') } } : c.method,
        output: { dir: 'release', formats: ['csv', 'xlsx', 'parquet'], report: ['html', 'pdf', 'json'] },
      };
      writeFileSync(join(work, 'job.json'), JSON.stringify(job));
      const r = spawnSync(process.execPath, [CLI, 'run', join(work, 'job.json'), '--json', '--test-seed', '7'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
      expect(r.status, r.stderr + r.stdout).toBe(0);

      const release = join(work, 'release');
      const forbidden: [string, (text: string) => boolean][] = [
        ['the SSN canary', (t) => t.includes(SSN_CANARY)],
        ["the input's SHA-256", (t) => t.includes(inputSha)],
        ["the input's folder", (t) => t.includes(secretFolder) || t.includes('secret-input-folder')],
        // File names are the custodian's labels for the data: the input's and the hierarchy's both say "HIV register".
        ["the input's or a hierarchy's file name", (t) => t.includes('hiv-register')],
        // How many utility queries were kept depends on the confidential counts.
        ['the query pool', (t) => /queryAttempts|kept of [\d,]+ drawn/.test(t)],
      ];
      // Where the method generalizes or does not publish zip, the unique zip must not appear either.
      if (c.attributes['zip'] === 'identifier' || 'hierarchies' in c.method || c.name === 'dp-counts') forbidden.push(['the zip canary', (t) => t.includes(ZIP_CANARY)]);
      if (c.dp) forbidden.push(['the exact record count', (t) => countPattern(ROWS).test(t)]);
      const publishedJob = JSON.parse(readFileSync(join(work, 'release', 'job.json'), 'utf8')) as { input: { path: string }; output: { variant: string[] } };
      expect(publishedJob.input.path).toBe('input.csv');
      expect(publishedJob.output.variant).toEqual(['external']);
      // Figures computed from the true data that the method's guarantee does not cover (an outside audit found each).
      const published = JSON.parse(readFileSync(join(work, 'release', 'report.json'), 'utf8'));
      if (c.name === 'uniform-perturbation') expect(published.risk.violatingAfter, 'the (ε,δ) test of the true groups').toBeUndefined();
      if (c.name === 'partitioned-recoding') {
        expect(published.method.derived.partSize, 'the part size gives n').toBeUndefined();
        expect(published.anonymity.parts.every((p: { size?: number }) => p.size === undefined), 'part sizes give the suppressed counts').toBe(true);
      }
      if (c.dp) {
        // Inferred types and the detected encoding change with one record: outside ε.
        expect(published.input.encoding).toBeUndefined();
        expect(published.input.columns.every((col: { type?: string }) => col.type === undefined)).toBe(true);
      } else expect(published.input.columns.every((col: { type?: string }) => typeof col.type === 'string')).toBe(true);
      if (c.name === 'beta-privacy') expect(Object.values(published.guarantee.maxInference).every((b) => !Object.hasOwn(b as object, 'count')), 'the worst true count per value').toBe(true);
      const leaks: string[] = [];
      const files = readdirSync(release);
      expect(files).toEqual(expect.arrayContaining(['manifest.json', 'report.json', 'report.html', 'report.pdf', 'release.xlsx', 'job.json']));
      expect(files.filter((name) => name.endsWith('.parquet')).length, 'a Parquet file per released table').toBe(files.filter((name) => name.endsWith('.csv')).length);
      for (const name of files) {
        // The released data may hold any number; the size is searched in everything else (the workbook's report sheets below).
        const dataFile = name.endsWith('.csv') || name.endsWith('.xlsx') || name.endsWith('.parquet');
        for (const text of texts(join(release, name))) {
          for (const [what, found] of forbidden) {
            if (dataFile && what === 'the exact record count') continue;
            if (found(text)) leaks.push(`${name}: ${what}`);
          }
        }
      }
      expect(leaks).toEqual([]);
      // The data sheets of the workbook are data too; its report sheets must not state the count.
      if (c.dp) {
        const wb = XLSX.read(readFileSync(join(release, 'release.xlsx')));
        for (const sheet of ['Report', 'Parameters', 'Checksums']) expect(countPattern(ROWS).test(XLSX.utils.sheet_to_csv(wb.Sheets[sheet]!)), sheet).toBe(false);
      }

      // Positive control: the same search finds the facts in the internal folder.
      const internal = join(work, 'release-internal');
      const internalText = readdirSync(internal).flatMap((name) => texts(join(internal, name))).join('\n');
      expect(internalText).toContain(inputSha);
      expect(internalText).toContain(secretFolder);
      expect(internalText).toContain('patients-hiv-register.csv');
      expect(countPattern(ROWS).test(internalText)).toBe(true);
      if (pdf) expect(texts(join(internal, 'internal-report.pdf'))[1]).toContain('CONFIDENTIAL');

      // verify agrees: publishable, with the internal report found beside it.
      const v = spawnSync(process.execPath, [CLI, 'verify', release, '--json', '--accept-test-randomness', '--original', input], { encoding: 'utf8' });
      const result = JSON.parse(v.stdout) as { checks: { name: string; ok: boolean; detail: string }[] };
      expect(result.checks.find((x) => x.name === 'publishable')?.ok, JSON.stringify(result.checks.filter((x) => !x.ok))).toBe(true);
    });
  }

  it('a workbook input: its sheet name stays out of the release, and verify --original still reads the right sheet', () => {
    const work = join(root, 'workbook');
    mkdirSync(work);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['note'], ['cover sheet']]), 'Cover');
    const rows = readFileSync(input, 'utf8').trimEnd().split('\n').map((line) => line.split(','));
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'HIV register 2026');
    const workbookPath = join(secretFolder, 'register.xlsx');
    XLSX.writeFile(book, workbookPath);
    writeFileSync(join(work, 'job.json'), JSON.stringify({ version: 1, input: { path: workbookPath, sheet: 'HIV register 2026' }, attributes: rrAttributes, method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, output: { dir: 'release', formats: ['csv', 'xlsx'], report: ['html', 'json'] } }));
    const r = spawnSync(process.execPath, [CLI, 'run', join(work, 'job.json'), '--test-seed', '2'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
    expect(r.status, r.stderr).toBe(0);
    for (const name of readdirSync(join(work, 'release'))) for (const text of texts(join(work, 'release', name))) expect(text.includes('HIV register'), name).toBe(false);
    const v = spawnSync(process.execPath, [CLI, 'verify', join(work, 'release'), '--json', '--accept-test-randomness', '--original', workbookPath], { encoding: 'utf8' });
    expect(v.status, v.stdout).toBe(0);
  });

  it('verify rejects a release folder holding an internal field, the internal report or the input hash', () => {
    const work = join(root, 'safe-k-anonymity');
    const release = join(work, 'release');
    const tamper = (name: string, edit: (dir: string) => void): string[] => {
      const copy = join(root, `tamper-${name}`);
      cpSync(release, copy, { recursive: true });
      cpSync(`${release}-internal`, `${copy}-internal`, { recursive: true });
      edit(copy);
      const v = spawnSync(process.execPath, [CLI, 'verify', copy, '--json', '--accept-test-randomness'], { encoding: 'utf8' });
      expect(v.status).toBe(1);
      return (JSON.parse(v.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }).checks.filter((x) => !x.ok).map((x) => `${x.name}: ${x.detail}`);
    };
    const withField = tamper('field', (dir) => {
      const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));
      report.input.rows = ROWS;
      writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
    });
    expect(withField.join('\n')).toMatch(/publishable: .*input\.rows/);
    const withInternal = tamper('internal', (dir) => cpSync(join(`${dir}-internal`, 'internal-report.html'), join(dir, 'notes.html')));
    expect(withInternal.join('\n')).toMatch(/publishable: .*notes\.html holds \(part of\) an internal report/);
    const withHash = tamper('hash', (dir) => writeFileSync(join(dir, 'readme.txt'), `input ${inputSha.toUpperCase()}`));
    expect(withHash.join('\n')).toMatch(/publishable: .*readme\.txt states the input's SHA-256/);
    const withFolder = tamper('folder', (dir) => writeFileSync(join(dir, 'notes.md'), `data from ${secretFolder}`));
    expect(withFolder.join('\n')).toMatch(/publishable: .*notes\.md states the input's folder/);
    const withCount = tamper('count', (dir) => writeFileSync(join(dir, 'report.html'), readFileSync(join(dir, 'report.html'), 'utf8').replace('</main>', `<p>${ROWS.toLocaleString('en-US')} records</p></main>`)));
    expect(withCount.join('\n')).toMatch(/publishable: .*report\.html states the input's record count/);
    const editJob = (dir: string, edit: (job: { input: { path: string }; output: { variant: string[] } }) => void): void => {
      for (const [file, at] of [['job.json', (x: unknown) => x], ['report.json', (x: { job: unknown }) => x.job]] as const) {
        const parsed = JSON.parse(readFileSync(join(dir, file), 'utf8'));
        edit((at as (x: unknown) => never)(parsed));
        writeFileSync(join(dir, file), JSON.stringify(parsed));
      }
    };
    const withName = tamper('name', (dir) => editJob(dir, (job) => { job.input.path = 'patients-hiv-register.csv'; }));
    expect(withName.join('\n')).toMatch(/publishable: .*job\.json has job input\.path names the input file/);
    const withVariant = tamper('variant', (dir) => editJob(dir, (job) => { job.output.variant = ['internal']; }));
    expect(withVariant.join('\n')).toMatch(/publishable: .*job output\.variant says "internal"/);
  });
});
