import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { internalOnlyFacts } from '../src/jobs/verify/confidential-facts.js';
import { publishabilityProblems } from '../src/jobs/verify/publishability.js';
import { ReleaseFiles } from '../src/jobs/verify/release-files.js';
import { pdfText } from '../src/io/input/pdf-text.js';

/**
 * Issue 36, item 6: the job's `utility` key (a classifier's target, contingency tables' pairs) is
 * checked with the job (exit 2 naming the key), and the figures it asks for are in the internal
 * report only: never in report.json, report.html or any other file of the release folder.
 */
const CLI = resolve('dist/cli/custos.mjs');

/** Real randomness: a seeded run is never publishable; nothing here depends on the draw. */
const env = (): NodeJS.ProcessEnv => {
  const { CUSTOS_TEST_RANDOMNESS: _seeded, ...rest } = process.env;
  return rest;
};
const custos = (dir: string, ...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: env() });

const ADULT_COLUMNS = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'occupation', 'salary-class'];

/** The first 3,000 records of Adult and its hierarchies in a fresh folder. */
function adultFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-analysis-'));
  const lines = readFileSync('resources/adult/adult.csv', 'utf8').split('\n');
  writeFileSync(join(dir, 'adult.csv'), lines.slice(0, 3001).join('\n') + '\n');
  for (const c of ['age', 'sex', 'race', 'education', 'marital-status']) copyFileSync(`resources/adult/adult_hierarchy_${c}.csv`, join(dir, `adult_hierarchy_${c}.csv`));
  return dir;
}

function recodingJob(utility: unknown, attributes: Record<string, string> = {}): string {
  const roles = Object.fromEntries(ADULT_COLUMNS.map((c) => [c, ['sex', 'age', 'race', 'education', 'marital-status'].includes(c) ? 'quasi' : c === 'salary-class' ? 'sensitive' : 'insensitive']));
  return JSON.stringify({
    version: 1,
    input: { path: 'adult.csv', delimiter: ';' },
    attributes: { ...roles, ...attributes },
    method: {
      type: 'global-recoding',
      models: [{ type: 'k-anonymity', k: 5 }],
      suppressionLimit: 0.05,
      hierarchies: Object.fromEntries(['age', 'sex', 'race', 'education', 'marital-status'].map((c) => [c, `adult_hierarchy_${c}.csv`])),
    },
    ...(utility === undefined ? {} : { utility }),
    output: { dir: 'out', formats: ['csv', 'xlsx', 'parquet'], report: ['json', 'html', 'pdf'] },
  });
}

describe('the job\'s utility key', () => {
  const refusals: [string, unknown, Record<string, string>, string][] = [
    ['an identifier column as the target', { target: 'occupation' }, { occupation: 'identifier' }, 'utility.target'],
    ['a column the input lacks', { target: 'income' }, {}, 'utility.target'],
    ['a target that is not a name', { target: 5 }, {}, 'utility.target'],
    ['a pair naming an identifier', { pairs: [['age', 'salary-class'], ['sex', 'occupation']] }, { occupation: 'identifier' }, 'utility.pairs[1][1]'],
    ['a pair of one column twice', { pairs: [['age', 'age']] }, {}, 'utility.pairs[0]'],
    ['an unknown key', { targets: 'sex' }, {}, 'utility'],
  ];
  it.each(refusals)('refuses %s (exit 2, naming the key, nothing written)', (_what, utility, attributes, key) => {
    const dir = adultFolder();
    writeFileSync(join(dir, 'job.json'), recodingJob(utility, attributes));
    const r = custos(dir, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toContain(`${key}:`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, 'out-internal'))).toBe(false);
  }, 60_000);

  it('refuses it for dp-counts, whose release is answers, not records', () => {
    const dir = adultFolder();
    writeFileSync(join(dir, 'job.json'), JSON.stringify({
      version: 1, input: { path: 'adult.csv', delimiter: ';' }, attributes: { sex: 'quasi' },
      method: { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex'], domains: { sex: 'from-data' } },
      utility: { target: 'sex' }, output: { dir: 'out', formats: ['csv'] },
    }));
    const r = custos(dir, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/utility: dp-counts .*no released records/);
  }, 60_000);
});

describe('the analysis is in the internal report only', () => {
  it('accuracies and distances in internal-report.json and .html; none of them in any file of the release folder', () => {
    const dir = adultFolder();
    writeFileSync(join(dir, 'job.json'), recodingJob({ target: 'salary-class' }));
    const r = custos(dir, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(0);
    const internal = JSON.parse(readFileSync(join(dir, 'out-internal', 'internal-report.json'), 'utf8'));
    const analysis = internal.utility.analysis;
    const c = analysis.classifier;
    expect(c.target).toBe('salary-class');
    expect(c.records).toBe(3000);
    // Adult's salary class is about 75 % "<=50K": the classifiers beat always guessing it, and the release's stays close to the input's.
    expect(c.majority).toBeGreaterThan(0.7);
    expect(c.inputAccuracy).toBeGreaterThan(c.majority);
    expect(Math.abs(c.inputAccuracy - c.releaseAccuracy)).toBeLessThan(0.05);
    // Default pairs: each quasi-identifier with the sensitive column.
    expect(analysis.tables.map((t: { columns: string[] }) => t.columns.join(' × '))).toEqual(['sex × salary-class', 'age × salary-class', 'race × salary-class', 'marital-status × salary-class', 'education × salary-class']);
    const html = readFileSync(join(dir, 'out-internal', 'internal-report.html'), 'utf8');
    expect(html).toContain('Analysis-based utility');
    expect(html).toContain(`${(100 * c.releaseAccuracy).toFixed(1)} %`);

    // Every figure as the JSON and the HTML write it.
    const figures = [c.inputAccuracy, c.releaseAccuracy, c.inputCrossValidated, c.majority, ...analysis.tables.flatMap((t: { totalVariation: number; hellinger: number }) => [t.totalVariation, t.hellinger])];
    const texts = [...figures.map((v) => JSON.stringify(v)), ...figures.map((v) => v.toFixed(4)).filter((t) => t !== '0.0000'), `${(100 * c.releaseAccuracy).toFixed(1)} %`, `${(100 * c.inputAccuracy).toFixed(1)} %`];
    const published = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(published.utility.analysis).toBeUndefined();
    const files = readdirSync(join(dir, 'out'));
    expect(files).toEqual(expect.arrayContaining(['report.json', 'report.html', 'report.pdf', 'release.csv', 'release.xlsx', 'release.parquet', 'job.json']));
    for (const name of files) {
      const bytes = readFileSync(join(dir, 'out', name)).toString('latin1');
      for (const word of ['Analysis-based utility', 'naive Bayes', 'Hellinger', 'total variation', ...texts]) expect(bytes.includes(word), `${name} holds "${word}"`).toBe(false);
    }
    // The check above can find a figure: the internal report holds them.
    const internalJson = readFileSync(join(dir, 'out-internal', 'internal-report.json'), 'utf8');
    for (const t of figures.map((v) => JSON.stringify(v))) expect(internalJson).toContain(t);

    // verify's backstop searches the release for the input's side of the contingency tables: every cell of
    // at least 1,000 records that the release's table does not hold is a confidential fact, and the release passes.
    const changed = analysis.tables.flatMap((t: { cells?: { input: number[]; release: number[] } }) => (t.cells ? t.cells.input.filter((n, i) => n >= 1000 && n !== t.cells!.release[i]) : []));
    expect(changed.length).toBeGreaterThan(0);
    const searched = new Set(internalOnlyFacts(internal, new Set(published.summary), []).map((f) => f.number));
    for (const n of changed) expect(searched.has(n), `cell ${n}`).toBe(true);
    const v = custos(dir, 'verify', 'out', '--internal', 'out-internal');
    expect(v.status, v.stdout + v.stderr).toBe(0);

    // A number is looked for in the PDF's text, not its raw bytes: an object's /Length (a number of any size)
    // once equalled an input cell, and once an internal-only count, and failed an honest release. The same
    // search finds a number the PDF shows.
    const pdf = readFileSync(join(dir, 'out', 'report.pdf'));
    const text = pdfText(pdf);
    const structural = [...pdf.toString('latin1').matchAll(/\/Length (\d{4,})/g)].map((m) => Number(m[1])).find((n) => !text.includes(String(n)) && !text.includes(n.toLocaleString('en-US')));
    expect(structural).toBeDefined();
    const shown = [...text.matchAll(/(?<![\p{L}\p{N}_.,-])(\d{1,3}(?:,\d{3})+|\d{4,})(?![\p{L}\p{N}_-]|[.,]\d)/gu)].map((m) => Number(m[1]!.replace(/,/g, ''))).find((n) => n >= 1000);
    expect(shown).toBeDefined();
    const problemsWith = (number: number) => publishabilityProblems(new ReleaseFiles(join(dir, 'out')), published, JSON.parse(readFileSync(join(dir, 'out', 'job.json'), 'utf8')), () => [{ kind: 'a planted figure', number, inCells: false }]);
    expect(problemsWith(structural!)).toEqual([]);
    expect(problemsWith(shown!), String(shown)).toContain('report.pdf states a planted figure');
  }, 120_000);
});
