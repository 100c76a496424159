/**
 * verify --original tests each randomized release against its own law (α = 10⁻⁶): tampered releases
 * (values put back to the truth, noise removed, perturbation undone), re-hashed as an insider would,
 * fail; correct releases of 50 seeds each pass (no false failure). Runs are in-process with
 * SeededTestRandomSource.
 */
import { rehashEntry, rehashRelease, type Listing } from './insider-rehash.js';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SeededTestRandomSource } from '../src/common/random/source.js';
import { parseJob } from '../src/jobs/load-job.js';
import { runJob } from '../src/jobs/run-job.js';
import { verifyRelease } from '../src/jobs/verify/verify-release.js';
import type { VerifyResult } from '../src/jobs/method-kit/checks.js';

const work = mkdtempSync(join(tmpdir(), 'custos-verify-stats-'));
let made = 0;
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Made {
  readonly dir: string;
  readonly input: string;
  readonly rows: string[][];
}

/** One release of `method` on `input` (CSV text), in its own folder, with seeded test randomness. */
async function release(input: string, method: object, seed: number, attributes: Record<string, string>): Promise<Made> {
  const folder = join(work, `r${made++}`);
  mkdirSync(folder);
  // A short input name: a base name of 4+ characters is searched for in the release as a fact of the input.
  writeFileSync(join(folder, 'in.csv'), input);
  const job = { version: 1, input: { path: 'in.csv' }, attributes, method, output: { dir: 'out', formats: ['csv'], report: ['json'] } };
  // The utility figure is the run's slowest part and plays no part in verify.
  await runJob(parseJob(job, folder), { random: new SeededTestRandomSource(seed), measureUtility: false });
  return { dir: join(folder, 'out'), input: join(folder, 'in.csv'), rows: input.split('\n').slice(1).map((l) => l.split(',')) };
}

const verify = (m: Made, original = true): Promise<VerifyResult> => verifyRelease(m.dir, { ...(original ? { original: m.input } : {}), acceptTestRandomness: true });
const failed = (v: VerifyResult): string[] => v.checks.filter((c) => !c.ok).map((c) => `${c.name}: ${c.detail}`);
const check = (v: VerifyResult, name: RegExp) => v.checks.find((c) => name.test(c.name));


/** What an insider does after changing files: every checksum in both manifests and both reports made to agree again, each file written as Custos writes it. */
function rehash(dir: string): void {
  const internal = `${dir}-internal`;
  const listed = (JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Listing).files.map((f) => f.name);
  rehashRelease(dir, listed.filter((name) => name !== 'report.json'));
  const internalReportPath = join(internal, 'internal-report.json');
  const internalReport = JSON.parse(readFileSync(internalReportPath, 'utf8')) as { output: Listing };
  for (const name of listed) rehashEntry(dir, internalReport.output, name);
  writeFileSync(internalReportPath, JSON.stringify(internalReport, null, 2) + '\n');
  const internalManifestPath = join(internal, 'manifest.json');
  const internalManifest = JSON.parse(readFileSync(internalManifestPath, 'utf8')) as Listing;
  for (const f of internalManifest.files) rehashEntry(internal, internalManifest, f.name);
  writeFileSync(internalManifestPath, JSON.stringify(internalManifest, null, 2) + '\n');
}

/** Rewrites a released CSV cell by cell (the test's values hold no commas or quotes), then re-hashes. */
function rewrite(m: Made, file: string, change: (header: string[], row: string[]) => string[]): void {
  const path = join(m.dir, file);
  const [head, ...lines] = readFileSync(path, 'utf8').split(/\r?\n/);
  const header = head!.split(',');
  const body = lines.filter((l) => l !== '').map((l) => change(header, l.split(',')).join(','));
  writeFileSync(path, [head, ...body, ''].join('\r\n'));
  rehash(m.dir);
}

/** Every released sensitive value put back to a true value of its micro group (the insider's tamper). */
function putBack(m: Made, sensitive: string): void {
  const inputHeader = readFileSync(m.input, 'utf8').split('\n')[0]!.split(',');
  const others = inputHeader.filter((n) => n !== sensitive);
  const pools = new Map<string, string[]>();
  for (const row of m.rows) {
    const key = others.map((n) => row[inputHeader.indexOf(n)]).join('|');
    pools.set(key, [...(pools.get(key) ?? []), row[inputHeader.indexOf(sensitive)]!]);
  }
  rewrite(m, 'release.csv', (h, row) => {
    const pool = pools.get(others.map((n) => row[h.indexOf(n)]).join('|'))!;
    // A sampled group's scaled copies outnumber its records: the last true value serves the rest.
    const value = pool.length > 1 ? pool.pop()! : pool[0]!;
    return row.map((v, j) => (h[j] === sensitive ? value : v));
  });
}

// 600 records, two quasi-identifiers: mostly micro groups of one to three records, the sensitive value skewed.
const RR_INPUT = ['region,age,job', ...Array.from({ length: 600 }, (_, i) => `r${i % 7},${18 + ((i * 13) % 67)},${['a', 'a', 'b', 'c', 'd'][(i * 7 + (i >> 2)) % 5]}`)].join('\n');
const RR_ROLES = { region: 'quasi', age: 'quasi', job: 'sensitive' };
const UNIFORM = { type: 'uniform-perturbation', retention: 0.5, domains: { job: 'from-data' } };
const RECONSTRUCTION = { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { job: 'from-data' } };
const DP_INPUT = ['region,sex,age', ...Array.from({ length: 300 }, (_, i) => `r${i % 5},${i % 3 === 0 ? 'f' : 'm'},${20 + (i % 30)}`)].join('\n');
const DP_ROLES = { region: 'quasi', sex: 'quasi', age: 'insensitive' };
const DP_LAPLACE = { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['region', 'sex'], domains: { region: 'from-data', sex: 'from-data' } };
const DP_GLM = { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['region', 'sex'], noise: 'generalized-laplace', correlation: { model: 'ar1', rho: 0.5 }, domains: { region: 'from-data', sex: 'from-data' } };
const SAFE_K = { type: 'safe-k-anonymity', k: 2, sampling: 0.5, epsilon: 1, hierarchies: { age: { type: 'interval', widths: [10, 20] } }, levels: { age: 1 } };
const MICRO = { type: 'microaggregation', columns: ['age'], k: 3 };

describe('verify --original: tampered releases fail', () => {
  it('uniform perturbation with every value put back to the truth fails the agreement test; the untampered release passes', async () => {
    const m = await release(RR_INPUT, UNIFORM, 11, RR_ROLES);
    expect(failed(await verify(m))).toEqual([]);
    putBack(m, 'job');
    const v = await verify(m);
    expect(failed(v)).toHaveLength(1);
    expect(check(v, /agreement with the original/)?.detail).toMatch(/far more often than perturbation at this retention allows/);
  });

  it('uniform perturbation with values drawn afresh, uniformly (too little agreement), fails', async () => {
    const m = await release(RR_INPUT, UNIFORM, 12, RR_ROLES);
    const values = ['a', 'b', 'c', 'd'];
    let i = 0;
    rewrite(m, 'release.csv', (h, row) => row.map((v, j) => (h[j] === 'job' ? values[(i++ * 7) % 4]! : v)));
    const v = await verify(m);
    expect(failed(v).map((f) => f.split(':')[1])).toEqual([' agreement with the original (α = 0.000001)']);
    expect(check(v, /agreement with the original/)?.detail).toMatch(/far less often/);
  });

  it('reconstruction privacy with every value put back to the truth fails; the untampered release passes', async () => {
    const m = await release(RR_INPUT, RECONSTRUCTION, 13, RR_ROLES);
    expect(failed(await verify(m))).toEqual([]);
    putBack(m, 'job');
    const v = await verify(m);
    expect(check(v, /agreement with the original/)?.ok).toBe(false);
    expect(check(v, /agreement with the original/)?.detail).toMatch(/values put back/);
  });

  it('dp-counts (discrete Laplace) with the noise replaced by the true counts fails; so does ten times the noise', async () => {
    const truthOf = (m: Made, header: string[], row: string[]): number =>
      m.rows.filter((r) => header.every((name, j) => !['region', 'sex'].includes(name) || row[j]!.startsWith('(all') || r[['region', 'sex', 'age'].indexOf(name)] === row[j])).length;
    const m = await release(DP_INPUT, DP_LAPLACE, 14, DP_ROLES);
    expect(failed(await verify(m))).toEqual([]);
    rewrite(m, 'answers.csv', (h, row) => {
      const truth = truthOf(m, h, row);
      const half = Number(row[h.indexOf('answer')]) - Number(row[h.indexOf('lower95')]);
      return h.map((name, j) => (name === 'answer' ? String(truth) : name === 'lower95' ? String(truth - half) : name === 'upper95' ? String(truth + half) : row[j]!));
    });
    const v = await verify(m);
    expect(failed(v).map((f) => f.split(':')[0])).toEqual(['noise against the original (α = 0.000001)']);
    expect(check(v, /noise against the original/)?.detail).toMatch(/far less noise/);

    const loud = await release(DP_INPUT, DP_LAPLACE, 15, DP_ROLES);
    rewrite(loud, 'answers.csv', (h, row) => {
      const truth = truthOf(loud, h, row);
      const answer = truth + 10 * (Number(row[h.indexOf('answer')]) - truth);
      const half = Number(row[h.indexOf('answer')]) - Number(row[h.indexOf('lower95')]);
      return h.map((name, j) => (name === 'answer' ? String(answer) : name === 'lower95' ? String(answer - half) : name === 'upper95' ? String(answer + half) : row[j]!));
    });
    expect(check((await verify(loud)), /noise against the original/)?.detail).toMatch(/far more noise/);
  });

  it('dp-counts (correlated noise) with the noise replaced by the true counts fails', async () => {
    const m = await release(DP_INPUT, DP_GLM, 16, DP_ROLES);
    expect(failed(await verify(m))).toEqual([]);
    rewrite(m, 'answers.csv', (h, row) => {
      const truth = m.rows.filter((r) => h.every((name, j) => !['region', 'sex'].includes(name) || row[j]!.startsWith('(all') || r[['region', 'sex', 'age'].indexOf(name)] === row[j])).length;
      const half = Number(row[h.indexOf('answer')]) - Number(row[h.indexOf('lower95')]);
      return h.map((name, j) => (name === 'answer' ? String(truth) : name === 'lower95' ? (truth - half).toFixed(6) : name === 'upper95' ? (truth + half).toFixed(6) : row[j]!));
    });
    expect(failed(await verify(m)).map((f) => f.split(':')[0])).toEqual(['noise against the original (α = 0.000001)']);
  });

  it('dp-counts: a stated scale or interval that is not Δ/ε fails from the release alone', async () => {
    const m = await release(DP_INPUT, DP_LAPLACE, 17, DP_ROLES);
    rewrite(m, 'answers.csv', (h, row) => h.map((name, j) => (name === 'lower95' ? String(Number(row[j]) + 1) : row[j]!)));
    expect(failed(await verify(m, false)).map((f) => f.split(':')[0])).toEqual(['95% intervals']);
  });

  it('safe k-anonymity with a sample size that Bin(N, β) does not give fails', async () => {
    const m = await release(RR_INPUT, SAFE_K, 18, { region: 'quasi', age: 'quasi', job: 'insensitive' });
    expect(failed(await verify(m))).toEqual([]);
    const path = join(`${m.dir}-internal`, 'internal-report.json');
    const report = JSON.parse(readFileSync(path, 'utf8')) as { anonymity: { sampled: number } };
    report.anonymity.sampled = 600;
    writeFileSync(path, JSON.stringify(report, null, 2) + '\n');
    rehash(m.dir);
    const v = await verify(m);
    expect(failed(v).map((f) => f.split(':')[0])).toEqual(['sample size against β (α = 0.000001)']);
  });

  it('microaggregation: a released record that is not the one MDAV gives on the original fails', async () => {
    const m = await release(RR_INPUT, MICRO, 19, { region: 'quasi', age: 'quasi', job: 'insensitive' });
    expect(failed(await verify(m))).toEqual([]);
    let first = true;
    rewrite(m, 'release.csv', (h, row) => {
      const out = row.map((v, j) => (first && h[j] === 'region' ? (v === 'r1' ? 'r2' : 'r1') : v));
      first = false;
      return out;
    });
    expect(failed(await verify(m)).map((f) => f.split(':')[0])).toEqual(['release recomputed from the original']);
  });
});

describe('verify without --original says which checks need it', () => {
  it('each statistical check is "not checked (needs --original…)", not ok; the command line prints it as skip', async () => {
    const cases: [object, Record<string, string>, string, RegExp][] = [
      [UNIFORM, RR_ROLES, RR_INPUT, /agreement with the original/],
      [RECONSTRUCTION, RR_ROLES, RR_INPUT, /agreement with the original/],
      [DP_LAPLACE, DP_ROLES, DP_INPUT, /noise against the original/],
      [SAFE_K, { region: 'quasi', age: 'quasi', job: 'insensitive' }, RR_INPUT, /sample size against β/],
      [MICRO, { region: 'quasi', age: 'quasi', job: 'insensitive' }, RR_INPUT, /release recomputed from the original/],
    ];
    for (const [method, roles, input, name] of cases) {
      const m = await release(input, method, 20, roles);
      const c = check((await verify(m, false)), name);
      expect(c, JSON.stringify(method)).toMatchObject({ ok: true, notChecked: true });
      expect(c!.detail).toMatch(/^not checked \(needs --original/);
    }
    const m = await release(RR_INPUT, UNIFORM, 21, RR_ROLES);
    const r = spawnSync(process.execPath, [resolve('dist/cli/custos.mjs'), 'verify', m.dir, '--accept-test-randomness'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '' } });
    expect(r.stdout).toMatch(/^skip {2}job: agreement with the original: not checked \(needs --original/m);
    expect(r.stdout).toMatch(/^skip {2}job: non-sensitive columns unchanged: not checked \(needs --original\)/m);
    expect(r.stdout).toMatch(/verified: every check holds \(\d+\); 2 not checked \(see "skip"\)/);
  });
});

describe('50 seeded reruns of each randomized method pass verify --original (no false failure)', () => {
  const cases: [string, object, string, Record<string, string>][] = [
    ['uniform perturbation', UNIFORM, RR_INPUT, RR_ROLES],
    ['reconstruction privacy', RECONSTRUCTION, RR_INPUT, RR_ROLES],
    ['dp-counts, discrete Laplace', DP_LAPLACE, DP_INPUT, DP_ROLES],
    ['dp-counts, correlated noise', DP_GLM, DP_INPUT, DP_ROLES],
    ['safe k-anonymity', SAFE_K, RR_INPUT, { region: 'quasi', age: 'quasi', job: 'insensitive' }],
  ];
  for (const [what, method, input, roles] of cases) {
    it(what, async () => {
      const failures: string[] = [];
      let tested = 0;
      for (let seed = 1000; seed < 1050; seed++) {
        const m = await release(input, method, seed, roles);
        const v = await verify(m);
        if (v.checks.some((c) => /against|agreement/.test(c.name) && c.ok && !c.notChecked)) tested++;
        failures.push(...failed(v).map((f) => `seed ${seed}: ${f}`));
      }
      expect(failures).toEqual([]);
      expect(tested).toBe(50);
    });
  }
});
