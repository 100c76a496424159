import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFIDENTIAL_MARK } from '../src/common/report/report-model.js';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT_DIR = resolve('resources/adult');
const ADULT = join(ADULT_DIR, 'adult.csv');
const TEST_ENV = { CUSTOS_TEST_RANDOMNESS: '1' };

function custos(args: string[], env: Record<string, string> = {}, cwd?: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, ...(cwd ? { cwd } : {}) });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Without a terminal, stderr holds the count of candidates and progress lines, nothing else (no warning, no error). */
function expectProgressOnly(stderr: string): void {
  const lines = stderr.split('\n').filter(Boolean);
  expect(lines[0]).toMatch(/^custos: comparing \d+ candidates?$/);
  for (const line of lines.slice(1)) expect(line).toMatch(/^custos: \d+\/\d+ candidates assessed \(\d+%\)$/);
}

function workdir(): string {
  return mkdtempSync(join(tmpdir(), 'custos-compare-'));
}

const QUASI = ['age', 'sex', 'race', 'marital-status', 'education', 'native-country', 'workclass'];
const hierarchies = Object.fromEntries([...QUASI, 'occupation', 'salary-class'].map((c) => [c, join(ADULT_DIR, `adult_hierarchy_${c}.csv`)]));

const adultJob = (method: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  version: 1,
  input: { path: ADULT, delimiter: ';', missing: ['', '?'] },
  attributes: { occupation: 'sensitive', 'salary-class': 'insensitive' },
  method,
  output: { dir: 'release' },
  ...extra,
});

const METHODS: Record<string, Record<string, unknown>> = {
  'up.json': { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } },
  'rp.json': { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { occupation: 'from-data' } },
  'beta.json': { type: 'beta-privacy', beta: { default: '1/4', values: { 'Prof-specialty': 0.3, 'Armed-Forces': 0.5 } }, fakeValues: 1, domains: { occupation: 'from-data' } },
  'safek.json': { type: 'safe-k-anonymity', k: 'auto', sampling: 0.5, target: { epsilon: 1, delta: 1e-5 }, levels: 'search', hierarchies },
  'partitioned.json': { type: 'partitioned-recoding', parts: 2, model: { type: 'k-anonymity', k: 5 }, hierarchies, levels: { age: 2, education: 1, 'native-country': 1 } },
  'micro.json': { type: 'microaggregation', columns: ['age'], k: 5 },
};

function writeJobs(dir: string, names = Object.keys(METHODS)): string[] {
  return names.map((name) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(adultJob(METHODS[name]!)));
    return path;
  });
}

interface Skipped {
  id: number;
  label: string;
  stage: 'check' | 'run';
  reason: string;
  key?: string;
  method?: { type: string };
}

interface Row {
  id: number;
  label: string;
  method: { type: string };
  guarantee: { label: string; holds: boolean };
  risk: { share: number; measure: string };
  utility: { relativeError?: number };
  frontier: boolean;
}

/** The definition: placed, and no other candidate is no worse on both axes and better on one. */
function bruteForceFrontier(rows: readonly Row[]): boolean[] {
  const placed = (r: Row) => r.utility.relativeError !== undefined;
  return rows.map((p) => placed(p) && !rows.some((q) => placed(q) && q.risk.share <= p.risk.share && q.utility.relativeError! <= p.utility.relativeError! && (q.risk.share < p.risk.share || q.utility.relativeError! < p.utility.relativeError!)));
}

describe('custos compare', () => {
  it('compares six methods on Adult: a measure and a guarantee each, the frontier as brute force finds it, nothing written', () => {
    const dir = workdir();
    const jobs = writeJobs(dir);
    const before = readdirSync(dir).sort();
    const r = custos(['compare', ...jobs, '--json', '--test-seed', '5'], TEST_ENV, dir);
    expectProgressOnly(r.stderr);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { confidential: string; testRandomness: boolean; pool: { queries: number; columns: string[] }; candidates: Row[]; notes: string[] };
    expect(out.confidential).toBe(CONFIDENTIAL_MARK);
    expect(out.testRandomness).toBe(true);
    expect(out.pool.queries).toBe(5000);
    expect(out.pool.columns).toHaveLength(9);
    expect(out.candidates.map((c) => c.method.type)).toEqual(['uniform-perturbation', 'reconstruction-privacy', 'beta-privacy', 'safe-k-anonymity', 'partitioned-recoding', 'microaggregation']);
    for (const c of out.candidates) {
      expect(c.risk.share).toBeGreaterThanOrEqual(0);
      expect(c.risk.share).toBeLessThanOrEqual(1);
      expect(c.utility.relativeError).toBeGreaterThan(0);
      expect(c.risk.measure.length).toBeGreaterThan(40);
    }
    expect(out.candidates.map((c) => c.frontier)).toEqual(bruteForceFrontier(out.candidates));
    expect(out.candidates.some((c) => c.frontier)).toBe(true);
    // Randomized response leaks groups that reconstruction privacy protects (strict: none left).
    expect(out.candidates[0]!.risk.share).toBeGreaterThan(0);
    expect(out.candidates[1]!.risk.share).toBe(0);
    expect(out.candidates[1]!.guarantee.label).toBe('(ε = 0.5, δ = 0.3)-reconstruction privacy');
    expect(out.candidates[3]!.guarantee.label).toMatch(/^\(ε = 1, δ = [0-9.]+e-6\)-DP$/);
    // Microaggregation of age alone: the other quasi-identifiers stay as collected, so many classes remain; aggregated ages rarely equal a queried age.
    expect(out.candidates[5]!.guarantee.label).toMatch(/5-anonymity of "age" by microaggregation/);
    expect(out.candidates[5]!.risk.share).toBeGreaterThan(out.candidates[4]!.risk.share);
    expect(out.notes[0]).toMatch(/itself a use of the confidential data/);
    expect(out.notes[0]).toMatch(/private search/);
    // No release, no internal folder: the folder holds the jobs and nothing else.
    expect(readdirSync(dir).sort()).toEqual(before);
  }, 60_000);

  it('gives every candidate the same pool and seeds: the order of candidates changes no figure', () => {
    const dir = workdir();
    const jobs = writeJobs(dir, ['up.json', 'rp.json', 'beta.json', 'safek.json']);
    const run = (order: string[]) => {
      const r = custos(['compare', ...order, '--json', '--test-seed', '11'], TEST_ENV, dir);
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout) as { candidates: Row[] };
      return new Map(out.candidates.map((c) => [c.label, { risk: c.risk.share, error: c.utility.relativeError, frontier: c.frontier }]));
    };
    const a = run(jobs);
    const b = run([jobs[3]!, jobs[1]!, jobs[0]!, jobs[2]!]);
    expect(b).toEqual(a);
    // Another seed draws another pool and other releases: the figures do move.
    const r = custos(['compare', ...jobs, '--json', '--test-seed', '12'], TEST_ENV, dir);
    const other = new Map((JSON.parse(r.stdout) as { candidates: Row[] }).candidates.map((c) => [c.label, c.utility.relativeError]));
    expect([...other.values()]).not.toEqual([...a.values()].map((v) => v.error));
  }, 60_000);

  it('a grid makes one candidate per combination of method parameters', () => {
    const dir = workdir();
    const [job] = writeJobs(dir, ['rp.json']);
    const r = custos(['compare', job!, '--grid', 'retention=0.3,0.5,0.7', '--grid', 'epsilon=0.4,0.5', '--json', '--test-seed', '3'], TEST_ENV, dir);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { candidates: (Row & { parameters: string; grid: { key: string; value: string }[] })[] };
    expect(out.candidates).toHaveLength(6);
    expect(out.candidates.map((c) => c.grid.map((g) => `${g.key}=${g.value}`).join(' '))).toEqual([
      'retention=0.3 epsilon=0.4', 'retention=0.3 epsilon=0.5', 'retention=0.5 epsilon=0.4', 'retention=0.5 epsilon=0.5', 'retention=0.7 epsilon=0.4', 'retention=0.7 epsilon=0.5',
    ]);
    expect(out.candidates[4]!.parameters).toContain('retention 0.7, ε 0.4');
    expect(out.candidates.map((c) => c.frontier)).toEqual(bruteForceFrontier(out.candidates));
  }, 60_000);

  it('skips a candidate that cannot run and compares the others; refuses a comparison none can run (exit 2, naming the candidate and the key), and an unreadable input (exit 3)', () => {
    const dir = workdir();
    const [up, rp] = writeJobs(dir, ['up.json', 'rp.json']);
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify(adultJob(METHODS['rp.json']!, { input: { path: ADULT, delimiter: ';', missing: [''] } })));
    let r = custos(['compare', up!, other, '--json']);
    expect(r.code).toBe(2);
    let error = JSON.parse(r.stdout).error;
    expect(error.key).toBe('input');
    expect(error.message).toContain('other.json');

    // A grid value that does not parse is that candidate's problem: it is skipped, the others compared.
    r = custos(['compare', rp!, '--grid', 'retention=0.5,1.5', '--json']);
    expect(r.code).toBe(0);
    let out = JSON.parse(r.stdout) as { candidates: Row[]; skipped: Skipped[] };
    expect(out.candidates.map((c) => c.label)).toEqual(['rp.json retention=0.5']);
    expect(out.skipped).toMatchObject([{ id: 2, label: 'rp.json retention=1.5', stage: 'check', key: 'method.retention' }]);
    // When none can run: exit 2, naming the candidate and the key.
    r = custos(['compare', rp!, '--grid', 'retention=1.5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('method.retention');
    expect(r.stderr).toContain('rp.json retention=1.5');

    r = custos(['compare', rp!, '--grid', '__proto__=1', '--json']);
    expect(r.code).toBe(2);
    error = JSON.parse(r.stdout).error;
    expect(error.message).toContain('__proto__');

    // dp-counts releases answers, not records: skipped before any work, named.
    const dp = join(dir, 'dp.json');
    writeFileSync(dp, JSON.stringify(adultJob({ type: 'dp-counts', queries: 'marginals', columns: ['sex'], epsilon: 1 })));
    r = custos(['compare', up!, dp, '--json']);
    expect(r.code).toBe(0);
    out = JSON.parse(r.stdout) as { candidates: Row[]; skipped: Skipped[] };
    expect(out.candidates.map((c) => c.method.type)).toEqual(['uniform-perturbation']);
    expect(out.skipped).toMatchObject([{ id: 2, label: 'dp.json', stage: 'check', key: 'method.type', method: { type: 'dp-counts' } }]);
    r = custos(['compare', dp, '--json']);
    expect(r.code).toBe(2);
    error = JSON.parse(r.stdout).error;
    expect(error.key).toBe('method.type');
    expect(error.message).toContain('dp.json');

    // A candidate the method refuses while it runs (here on the helper thread: the second candidate), alone: exit 2.
    const infeasible = join(dir, 'infeasible.json');
    writeFileSync(infeasible, JSON.stringify(adultJob({ type: 'beta-privacy', beta: { coefficient: 8 }, domains: { occupation: 'from-data' } })));
    r = custos(['compare', infeasible, '--json']);
    expect(r.code).toBe(2);
    error = JSON.parse(r.stdout).error;
    expect(error.key).toBe('method.maxBucket');
    expect(error.message).toContain('candidate infeasible.json');

    r = custos(['compare', up!, '--test-seed', '1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CUSTOS_TEST_RANDOMNESS=1');

    const missing = join(dir, 'missing.json');
    writeFileSync(missing, JSON.stringify(adultJob(METHODS['up.json']!, { input: { path: join(dir, 'nowhere.csv') } })));
    r = custos(['compare', missing]);
    expect(r.code).toBe(3);
    expect(readdirSync(dir).sort()).toEqual(['dp.json', 'infeasible.json', 'missing.json', 'other.json', 'rp.json', 'up.json']);
  }, 60_000);

  it('keeps a candidate that cannot run as "cannot run: …" and compares the others (exit 0); the files list it too', () => {
    const dir = workdir();
    const [up, rp] = writeJobs(dir, ['up.json', 'rp.json']);
    const write = (name: string, method: Record<string, unknown>) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(adultJob(method)));
      return path;
    };
    // Refused when checked (no column to aggregate), and refused while running: on the helper thread (β infeasible) and on the main one (no transformation meets k).
    const micro = write('micro-none.json', { type: 'microaggregation', columns: [], k: 3 });
    const beta = write('beta-infeasible.json', { type: 'beta-privacy', beta: { coefficient: 8 }, domains: { occupation: 'from-data' } });
    const recoding = write('recoding-infeasible.json', { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 40000 }], hierarchies: { age: { type: 'interval', widths: [10] } } });
    const internal = join(dir, 'comparison-internal');
    const r = custos(['compare', up!, micro, beta, recoding, rp!, '--json', '--internal', internal, '--test-seed', '5'], TEST_ENV, dir);
    expectProgressOnly(r.stderr);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { candidates: Row[]; skipped: Skipped[]; notes: string[] };
    expect(out.candidates.map((c) => [c.id, c.label])).toEqual([[1, 'up.json'], [5, 'rp.json']]);
    expect(out.candidates.every((c) => c.utility.relativeError! > 0)).toBe(true);
    expect(out.candidates.map((c) => c.frontier)).toEqual(bruteForceFrontier(out.candidates));
    expect(out.skipped.map((s) => [s.id, s.label, s.stage, s.key])).toEqual([
      [2, 'micro-none.json', 'check', 'method.columns'],
      [3, 'beta-infeasible.json', 'run', 'method.maxBucket'],
      [4, 'recoding-infeasible.json', 'run', 'method.models'],
    ]);
    expect(out.skipped[0]!.reason).toBe('name at least one numeric column to aggregate');
    expect(out.skipped[2]!.reason).toMatch(/^none of the \d+ ways of recoding .*meets 40000-anonymity/);
    // The reason is the method's own, not prefixed with another method's words or the candidate's label.
    for (const s of out.skipped) expect(s.reason).not.toMatch(/candidate|columns to count/);
    expect(out.notes.some((n) => n.includes('3 candidates could not run'))).toBe(true);
    // The files and the terminal keep every candidate in its place.
    const csv = readFileSync(join(internal, 'comparison.csv'), 'utf8').split('\r\n');
    expect(csv[3]).toMatch(/^2,micro-none\.json,Microaggregation.*cannot run: method\.columns: name at least one numeric column to aggregate/);
    expect(csv[1]).toContain(',common-pool query error,');
    const html = readFileSync(join(internal, 'comparison.html'), 'utf8');
    expect(html).toContain('cannot run: method.models: none of the 3 ways of recoding');
    // Its error has its own name, told apart from the run report's sensitive-value query error.
    expect(html).toContain('is not the run report&#39;s &quot;mean relative error of sensitive-value count queries&quot;');
    const text = custos(['compare', up!, micro, rp!, '--test-seed', '5'], TEST_ENV, dir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^2 +micro-none\.json .*cannot run: method\.columns/m);
    expect(text.stdout).toContain('Not compared (1 of 3 candidates could not run');
    // None of them can run: exit 2, each named with its reason.
    const none = custos(['compare', micro, beta, '--json']);
    expect(none.code).toBe(2);
    const error = JSON.parse(none.stdout).error as { message: string };
    expect(error.message).toMatch(/no candidate could run: 1\. micro-none\.json: method\.columns: name at least one numeric column.*; 2\. beta-infeasible\.json: method\.maxBucket/);
  }, 90_000);

  it('--internal writes only the confidential comparison folder, never a release, and replaces only a folder it wrote', () => {
    const dir = workdir();
    const jobs = writeJobs(dir, ['up.json', 'rp.json', 'safek.json']);
    const before = readdirSync(dir).sort();
    const internal = join(dir, 'comparison-internal');
    const csv = join(dir, 'table.csv');
    const r = custos(['compare', ...jobs, '--internal', internal, '--csv', csv, '--test-seed', '2'], TEST_ENV, dir);
    expectProgressOnly(r.stderr);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([...before, 'comparison-internal', 'table.csv'].sort());
    expect(existsSync(join(dir, 'release'))).toBe(false);
    expect(readdirSync(internal).sort()).toEqual(['comparison.csv', 'comparison.html', 'comparison.json', 'manifest.json']);
    const html = readFileSync(join(internal, 'comparison.html'), 'utf8');
    expect(html).toContain(CONFIDENTIAL_MARK);
    expect(html).toContain('<svg');
    expect(html).toMatch(/itself a use of the confidential data/);
    expect(JSON.parse(readFileSync(join(internal, 'manifest.json'), 'utf8')).kind).toBe('comparison');
    expect(readFileSync(csv, 'utf8').split('\r\n')[0]).toBe(CONFIDENTIAL_MARK);
    expect(r.stdout).toContain('✓');
    // Again into the same folders: Custos wrote them, so they are replaced.
    expect(custos(['compare', ...jobs, '--internal', internal, '--csv', csv, '--test-seed', '2'], TEST_ENV, dir).code).toBe(0);
    // A folder of the user's is never replaced, nor a file that is not an earlier export.
    const mine = join(dir, 'mine');
    mkdirSync(mine);
    writeFileSync(join(mine, 'notes.txt'), 'mine');
    let refused = custos(['compare', ...jobs, '--internal', mine], TEST_ENV, dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--internal');
    expect(readdirSync(mine)).toEqual(['notes.txt']);
    const notes = join(dir, 'notes.csv');
    writeFileSync(notes, 'a,b\n');
    refused = custos(['compare', ...jobs, '--csv', notes], TEST_ENV, dir);
    expect(refused.code).toBe(2);
    expect(readFileSync(notes, 'utf8')).toBe('a,b\n');
    // An earlier export the user added a line to is theirs now; a link is never followed nor replaced.
    const edited = `${readFileSync(csv, 'utf8')}my notes,important\r\n`;
    writeFileSync(csv, edited);
    refused = custos(['compare', ...jobs, '--csv', csv], TEST_ENV, dir);
    expect(refused.code).toBe(2);
    expect(readFileSync(csv, 'utf8')).toBe(edited);
    const link = join(dir, 'link.csv');
    symlinkSync(csv, link);
    refused = custos(['compare', ...jobs, '--csv', link], TEST_ENV, dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--csv .*link\.csv is a symbolic link/);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    // A run's internal report and a comparison never replace each other's folder.
    const runInternal = join(dir, 'run-internal');
    expect(custos(['run', jobs[0]!, '--out', join(dir, 'run-release'), '--internal', runInternal, '--test-seed', '2'], TEST_ENV, dir).code).toBe(0);
    refused = custos(['compare', ...jobs, '--internal', runInternal], TEST_ENV, dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/describes an internal report folder, not a comparison folder/);
    expect(existsSync(join(runInternal, 'internal-report.json'))).toBe(true);
    refused = custos(['run', jobs[0]!, '--out', join(dir, 'run-release'), '--internal', internal, '--test-seed', '2'], TEST_ENV, dir);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/describes a comparison folder, not an internal report folder/);
    expect(existsSync(join(internal, 'comparison.json'))).toBe(true);
    // The folder holding the input is never the comparison's.
    refused = custos(['compare', ...jobs, '--internal', ADULT_DIR], TEST_ENV, dir);
    expect(refused.code).toBe(2);
  }, 90_000);

  it('Ctrl-C cancels a comparison in its worker: exit 130, nothing left behind', async () => {
    const dir = workdir();
    const [job] = writeJobs(dir, ['safek.json']);
    const internal = join(dir, 'comparison-internal');
    const child = spawn(process.execPath, [CLI, 'compare', job!, '--grid', 'sampling=0.1,0.2,0.3,0.4,0.5,0.55', '--grid', 'searchEpsilon=0.05,0.1,0.2', '--internal', internal], { cwd: dir });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    await new Promise((r) => setTimeout(r, 1500));
    child.kill('SIGINT');
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).toBe(130);
    expect(stderr).toMatch(/cancel/);
    expect(readdirSync(dir)).toEqual(['safek.json']);
  }, 60_000);

  it('takes column names as data (__proto__, constructor) and refuses candidates that exclude different records', () => {
    const dir = workdir();
    const rows = ['__proto__,constructor,diag'];
    for (let i = 0; i < 400; i++) rows.push(`${['a', 'b', 'c'][i % 3]},${['x', 'y'][(i >> 2) % 2]},${i % 13 === 0 ? '' : ['d1', 'd2', 'd3', 'd4'][(i * 7) % 4]}`);
    writeFileSync(join(dir, 'names.csv'), rows.join('\n') + '\n');
    const job = (method: Record<string, unknown>, attributes: Record<string, string>, missingSensitive = 'category') => ({
      version: 1,
      input: { path: 'names.csv', missingSensitive },
      attributes,
      method,
      output: { dir: 'release' },
    });
    const write = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value));
    write('up.json', job({ type: 'uniform-perturbation', retention: 0.5, domains: { diag: 'from-data' } }, { diag: 'sensitive', ['__proto__']: 'quasi' }));
    write('beta.json', job({ type: 'beta-privacy', beta: { default: '1/2' }, domains: { diag: 'from-data' } }, { diag: 'sensitive', constructor: 'quasi' }));
    const r = custos(['compare', 'up.json', 'beta.json', '--json', '--test-seed', '4'], TEST_ENV, dir);
    expectProgressOnly(r.stderr);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { pool: { columns: string[]; queries: number }; candidates: Row[] };
    expect(out.pool.columns).toEqual(['__proto__', 'constructor', 'diag']);
    expect(out.pool.queries).toBeGreaterThan(0);
    expect(out.candidates.map((c) => c.utility.relativeError !== undefined)).toEqual([true, true]);
    // With "exclude", candidates with other sensitive columns would be measured against other records.
    write('up-x.json', job({ type: 'uniform-perturbation', retention: 0.5, domains: { diag: 'from-data' } }, { diag: 'sensitive' }, 'exclude'));
    write('up-y.json', job({ type: 'uniform-perturbation', retention: 0.5, domains: { diag: 'from-data', constructor: 'from-data' } }, { diag: 'sensitive', constructor: 'sensitive' }, 'exclude'));
    const refused = custos(['compare', 'up-x.json', 'up-y.json', '--json'], {}, dir);
    expect(refused.code).toBe(2);
    const error = JSON.parse(refused.stdout).error;
    expect(error.key).toBe('input.missingSensitive');
    expect(error.message).toContain('up-y.json');
  }, 60_000);

  it('says how to use it', () => {
    const r = custos(['help', 'compare']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--grid KEY=V1,V2');
    expect(r.stdout).toContain('--internal DIR');
    expect(custos(['compare', '--help']).stdout).toBe(r.stdout);
  });
});
