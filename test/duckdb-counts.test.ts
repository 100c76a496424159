// Issue 37 item 5 on a small file: dp-counts' exact counts from DuckDB (bench/duckdb-marginals.ts,
// one GROUP BY GROUPING SETS) equal Custos's count pass query by query, and the seeded release made
// from them is custos run --test-seed's answers.csv byte for byte. DuckDB is imported statically: if
// @duckdb/node-api cannot load here, this file fails (it never skips).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dpCountsJob } from '../bench/dp-counts-peer.js';
import { countDifferences, countsForPlan, duckdbCounts, readJobInput, seededAnswers, writeAnswersCsv, type EngineCounts } from '../bench/duckdb-marginals.js';
import { writeCensus } from '../bench/gen-census.js';
import { loadJobFile, type LoadedJob } from '../src/jobs/load-job.js';
import { trueAnswers, type AnswerPlan } from '../src/mechanisms/dp-counts/node/answers.js';

const CLI = resolve('dist/cli/custos.mjs');
const SEED = 7;

let dir: string;
let census: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'custos-duckdb-'));
  const generated = join(dir, 'generated.csv');
  const fd = openSync(generated, 'w');
  writeCensus(fd, { rows: 4000, seed: 3, jitter: 2, regions: 5, seedFile: resolve('resources/adult/adult.csv') });
  closeSync(fd);
  // Missing values of both of the job's codes ('' and '?'): DuckDB reads them as NULL, Custos as code 0.
  const lines = readFileSync(generated, 'utf8').trimEnd().split('\n');
  const header = lines[0]!.split(';');
  const workclass = header.indexOf('workclass');
  const race = header.indexOf('race');
  const body = lines.slice(1).map((line, i) => {
    const cells = line.split(';');
    if (i % 23 === 0) cells[workclass] = '';
    if (i % 29 === 0) cells[race] = '?';
    return cells.join(';');
  });
  census = join(dir, 'census.csv');
  writeFileSync(census, [lines[0], ...body].join('\n') + '\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function jobFile(name: string, job: object): LoadedJob {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify(job));
  return loadJobFile(path);
}

/** answers.csv of `custos run <job> --test-seed SEED`. */
function cliAnswers(loaded: LoadedJob, name: string): Buffer {
  const out = join(dir, `${name}-release`);
  const r = spawnSync(process.execPath, [CLI, 'run', loaded.path!, '--out', out, '--test-seed', String(SEED)], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(join(out, 'answers.csv'));
}

/** The release from the engine's counts, and both counts of every distinct query. */
function fromEngine(loaded: LoadedJob, counts: EngineCounts, name: string): { csv: Buffer; answers: AnswerPlan; custos: Float64Array; engine: Float64Array } {
  const imported = readJobInput(loaded);
  let seen: { answers: AnswerPlan; custos: Float64Array; engine: Float64Array } | undefined;
  const table = seededAnswers(loaded, imported, SEED, (answers, rowCount) => {
    const engine = countsForPlan(answers, counts);
    seen = { answers, custos: trueAnswers(answers, rowCount), engine };
    return engine;
  });
  const path = join(dir, `${name}-duckdb.csv`);
  writeAnswersCsv(path, loaded, table);
  return { csv: readFileSync(path), ...seen! };
}

describe('dp-counts from DuckDB counts (bench/duckdb-marginals.ts)', () => {
  it('marginals: every exact count equals Custos\'s, and the seeded answers.csv is custos run\'s byte for byte', async () => {
    const loaded = jobFile('marginals', { ...dpCountsJob(census, ';'), input: { path: census, delimiter: ';', missing: ['', '?'] } });
    const counts = await duckdbCounts(loaded, { threads: 1 });
    const { csv, answers, custos, engine } = fromEngine(loaded, counts, 'marginals');
    // 2 + 5 + 7 + 8 + 2 cells alone, and their pairs: 222 queries here, all counted by both.
    expect(answers.unique.length).toBeGreaterThan(200);
    expect(countDifferences(answers, custos, engine)).toEqual([]);
    // Missing values are no cell: a column's cells sum to the rows where it is present.
    const workclassTotal = answers.unique.reduce((sum, a, i) => (a.query.where.size === 1 && answers.columns[[...a.query.where.keys()][0]!]!.name === 'workclass' ? sum + engine[i]! : sum), 0);
    expect(workclassTotal).toBe(4000 - Math.ceil(4000 / 23));
    expect(csv.equals(cliAnswers(loaded, 'marginals'))).toBe(true);
  });

  it('explicit queries over a series with a declared domain: values absent from the data count 0 in both, the series column joins each count set', async () => {
    const loaded = jobFile('queries', {
      version: 1,
      input: { path: census, delimiter: ';', missing: ['', '?'] },
      attributes: {},
      method: { type: 'dp-counts', epsilon: 1, noise: 'laplace', queries: [{ where: { sex: 'Female' } }, { where: { sex: 'Male', race: 'White' } }, { where: { workclass: 'Nowhere-employed' } }], series: { by: 'salary-class', iteration: 'keep' }, domains: { 'salary-class': ['<=50K', '>50K', 'other'] } },
      output: { dir: 'release', formats: ['csv'], report: ['json'] },
    });
    const counts = await duckdbCounts(loaded, { threads: 1 });
    const { csv, answers, custos, engine } = fromEngine(loaded, counts, 'queries');
    expect(countDifferences(answers, custos, engine)).toEqual([]);
    const absent = answers.unique.filter((a) => a.label.includes('Nowhere-employed')).map((a) => engine[answers.unique.indexOf(a)]);
    expect(absent).toEqual([0, 0, 0]);
    // Female, Male ∧ White, each at <=50K and >50K: none at "other", which the data lack.
    expect(answers.unique.length).toBe(9);
    expect(engine.filter((n) => n > 0).length).toBe(4);
    expect(csv.equals(cliAnswers(loaded, 'queries'))).toBe(true);
  });

  it('fails when one count is off by one: the difference is named and the answers differ', async () => {
    const loaded = jobFile('perturbed', dpCountsJob(census, ';'));
    const counts = await duckdbCounts(loaded, { threads: 1 });
    const key = JSON.stringify([['race', 'White'], ['sex', 'Female']]);
    expect(counts.cells.has(key)).toBe(true);
    const perturbed: EngineCounts = { shapes: counts.shapes, cells: new Map([...counts.cells].map(([k, n]) => [k, k === key ? n + 1 : n])) };
    const { csv, answers, custos, engine } = fromEngine(loaded, perturbed, 'perturbed');
    expect(countDifferences(answers, custos, engine)).toEqual([{ query: 'sex=Female ∧ race=White', custos: counts.cells.get(key)!, engine: counts.cells.get(key)! + 1 }]);
    expect(csv.equals(cliAnswers(loaded, 'perturbed'))).toBe(false);
  });
});
