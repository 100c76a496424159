import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT = resolve('resources/adult/adult.csv');
const H = (name: string) => resolve(`resources/adult/adult_hierarchy_${name}.csv`);

function run(method: Record<string, unknown>, extra: string[] = [], output: Record<string, unknown> = {}): { code: number; stdout: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'custos-k-'));
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: ADULT }, attributes: { occupation: 'sensitive', 'salary-class': 'insensitive' }, method, output: { dir: 'out', formats: ['csv'], report: ['json'], ...output } }));
  const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json', '--test-seed', '2', ...extra], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, dir };
}

const hierarchies = {
  age: { type: 'interval', widths: [10, 20] },
  education: H('education'),
  'marital-status': H('marital-status'),
  'native-country': H('native-country'),
  workclass: H('workclass'),
  occupation: H('occupation'),
  race: H('race'),
};
const levels = { age: 2, education: 2, 'marital-status': 2, 'native-country': 1, workclass: 2, occupation: 1, race: 1 };

describe('custos run: sampling + safe k-anonymization', () => {
  it('solves for k, releases generalized records, and reports ε, δ, classes, the smallest class and the suppressed count', () => {
    const r = run({ type: 'safe-k-anonymity', k: 'auto', sampling: 0.1, target: { epsilon: 1, delta: 1e-6 }, hierarchies, levels });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.anonymity.k).toBe(9);
    expect(report.guarantee).toMatchObject({ epsilon: 1, holds: true });
    expect(report.guarantee.delta).toBeLessThanOrEqual(1e-6);
    expect(report.risk.classes).toBeGreaterThan(10);
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(9);
    expect(report.output.suppressed).toBeGreaterThanOrEqual(0);
    expect(report.anonymity.curve.length).toBeGreaterThan(3);
    const lines = readFileSync(join(r.dir, 'out', 'release.csv'), 'utf8').trim().split('\r\n');
    expect(lines.length - 1).toBe(report.output.rows);
    expect(lines[1]).toMatch(/\d+-\d+/);
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(r.dir, 'out'), '--accept-test-randomness'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('rejects bad settings with exit 2 and a clear message, writing nothing', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ type: 'safe-k-anonymity', k: 1, sampling: 0.1 }, /k must be at least 2/],
      [{ type: 'safe-k-anonymity', k: 5, sampling: 1 }, /sampling must be < 1/],
      [{ type: 'safe-k-anonymity', k: 5, sampling: 0.5, epsilon: 0.5 }, /below −ln\(1−β\) = 0\.693147/],
      [{ type: 'safe-k-anonymity', k: 5, sampling: 0.5, target: { epsilon: 1, delta: 1e-9 } }, /the smallest k for this β is \d+/],
      [{ type: 'safe-k-anonymity', k: 5, sampling: 0.1, hierarchies: { education: H('race') }, levels: { education: 1 } }, /16 values of "education" are not listed in its hierarchy file: .*add a row for each/],
      [{ type: 'safe-k-anonymity', k: 5, sampling: 0.1, hierarchies: { age: { type: 'interval', widths: [10] } }, levels: { age: 5 } }, /level 5 is beyond/],
      [{ type: 'safe-k-anonymity', k: 5, sampling: 0.1, levels: 'search' }, /the lattice search needs at least one hierarchy/],
    ];
    for (const [method, message] of cases) {
      const r = run(method);
      expect(r.code, JSON.stringify(method)).toBe(2);
      expect(JSON.parse(r.stdout).error.message).toMatch(message);
      expect(readdirSync(r.dir)).toEqual(['job.json']);
    }
  });
});

describe('custos run: differentially private choice of the generalization', () => {
  it('levels "search": the exponential mechanism picks a lattice node; ε_sel is added to the total and δ belongs to the rest', () => {
    const r = run({ type: 'safe-k-anonymity', k: 'auto', sampling: 0.1, target: { epsilon: 1.1, delta: 1e-6 }, searchEpsilon: 0.1, hierarchies, levels: 'search' });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.anonymity.k).toBe(9);
    expect(report.method.derived).toMatchObject({ epsilonAnonymization: 1, epsilonSelection: 0.1 });
    expect(report.guarantee.epsilon).toBeCloseTo(1.1, 12);
    expect(report.method.derived.searchStrategy).toBe('lattice');
    // age 4 levels, education 4, marital-status 3, native-country 3, workclass 3, occupation 3, race 2.
    expect(report.method.derived.latticeNodes).toBe(4 * 4 * 3 * 3 * 3 * 3 * 2);
    // Branches bounded below the best are not scored node by node; scores are internal only.
    expect(report.method.internal.scoredNodes).toBeGreaterThan(0);
    expect(report.method.internal.scoredNodes).toBeLessThanOrEqual(report.method.derived.latticeNodes);
    expect(report.method.internal.chosenScore).toBeLessThanOrEqual(report.method.internal.bestScore);
    const external = JSON.parse(readFileSync(join(r.dir, 'out', 'report.json'), 'utf8'));
    expect(external.variant).toBe('external');
    expect(external.method.internal).toBeUndefined();
    expect(external.summary.join(' ')).toMatch(/levels chosen with a differentially private search/);
    // Issue 30: the (ε, δ) sentence carries its condition, SafePub's composition of search and anonymization on one sample.
    for (const summary of [report.summary as string[], external.summary as string[]]) {
      const sentence = summary.find((line) => /-differentially private/.test(line));
      expect(sentence).toMatch(/\(ε = 1\.1, δ = [^)]+\)-differentially private.* — provided the private search \(ε = 0\.1\) and the sampling and k-anonymization \(ε = 1\), both run on the same sample, compose sequentially as SafePub argues/);
    }
    expect(external.method.derived.latticeNodes).toBe(report.method.derived.latticeNodes);
    expect(report.method.derived.searchLossWeight).toBe(0.6);
    // The curve gives the whole guarantee: every ε includes ε_sel.
    expect(report.anonymity.curve[0].epsilon).toBeCloseTo(report.method.derived.minimumEpsilon + 0.1, 9);
    expect(report.anonymity.choice).toMatch(/drawn exactly/);
    expect(report.anonymity.choice).toMatch(/exponential mechanism/);
    expect(report.risk.minClassSize).toBeGreaterThanOrEqual(9);
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(r.dir, 'out'), '--accept-test-randomness'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
    const path = JSON.parse(run({ type: 'safe-k-anonymity', k: 9, sampling: 0.1, epsilon: 1, searchEpsilon: 0.1, searchStrategy: 'path', hierarchies, levels: 'search' }).stdout);
    expect(path.method.internal.scoredNodes).toBeLessThan(150);
    // The walk may choose a node where every class is below k: then nothing is released, which is safe.
    // What must hold either way: every released class has at least k records.
    if (path.risk.classes === 0) expect(path.output?.rows ?? 0).toBe(0);
    else expect(path.risk.minClassSize).toBeGreaterThanOrEqual(9);
    expect(path.guarantee.holds).toBe(true);
  });
});

describe('custos run: a lattice too large to score whole', () => {
  it('exits 2 naming searchStrategy and pointing to the path walk, which runs', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-big-'));
    const columns = Array.from({ length: 9 }, (_, j) => `c${j}`);
    const rows = Array.from({ length: 60 }, (_, i) => columns.map((_, j) => String(10000 + ((i * (j + 3)) % 50))).join(','));
    writeFileSync(join(dir, 'codes.csv'), [columns.join(','), ...rows].join('\n'));
    const masking = Object.fromEntries(columns.map((c) => [c, { type: 'masking', length: 5 }]));
    const job = (strategy: string) => ({ version: 1, input: { path: join(dir, 'codes.csv') }, method: { type: 'safe-k-anonymity', k: 2, sampling: 0.5, hierarchies: masking, levels: 'search', searchStrategy: strategy }, output: { dir: `out-${strategy}`, formats: ['csv'], report: ['json'] } });
    for (const strategy of ['lattice', 'path']) writeFileSync(join(dir, `${strategy}.json`), JSON.stringify(job(strategy)));
    const env = { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' };
    const lattice = spawnSync(process.execPath, [CLI, 'run', join(dir, 'lattice.json'), '--json', '--test-seed', '1'], { encoding: 'utf8', env });
    expect(lattice.status).toBe(2);
    const error = JSON.parse(lattice.stdout).error;
    expect(error.message).toMatch(/10,077,696 nodes.*searchStrategy "path"/);
    expect(readdirSync(dir)).not.toContain('out-lattice');
    const path = spawnSync(process.execPath, [CLI, 'run', join(dir, 'path.json'), '--json', '--test-seed', '1'], { encoding: 'utf8', env });
    expect(path.status, path.stdout).toBe(0);
  });
});

describe('custos run: partitioned recoding', () => {
  it('every released class of every part meets k; ε′ per Theorem 2 is reported', () => {
    const r = run({ type: 'partitioned-recoding', parts: 3, model: { type: 'k-anonymity', k: 5 }, hierarchies, levels });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.anonymity.parts).toHaveLength(3);
    for (const p of report.anonymity.parts) expect(p.worst).toBeGreaterThanOrEqual(5);
    expect(report.anonymity.epsilonPrime[2]).toMatchObject({ epsilon: 1 });
    const header = readFileSync(join(r.dir, 'out', 'release.csv'), 'utf8').split('\r\n')[0]!.split(',');
    expect(header[0]).toBe('NOT_A_PROTECTED_RELEASE');
    expect(header[1]).toBe('part');
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(r.dir, 'out'), '--accept-test-randomness'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('levels "search": the least Loss recoding shared by the parts, every class of every part ≥ k, the levels in the report, and verify passes', () => {
    const r = run({ type: 'partitioned-recoding', parts: 2, model: { type: 'k-anonymity', k: 5 }, hierarchies, levels: 'search', suppressionLimit: 0.02, measure: 'loss' }, [], { report: ['json', 'html'] });
    expect(r.code, r.stdout).toBe(0);
    const report = JSON.parse(r.stdout);
    // Every quasi-identifier (sex has no hierarchy: level 0).
    expect(Object.keys(report.method.levels).sort()).toEqual(['age', 'education', 'marital-status', 'native-country', 'race', 'sex', 'workclass']);
    expect(report.method.levels.sex).toBe(0);
    expect(report.guarantee.holds).toBe(true);
    expect(report.guarantee.statement).toMatch(/chosen by a search over the [\d,]+ recodings of the lattice/);
    for (const p of report.anonymity.parts) expect(p.worst).toBeGreaterThanOrEqual(5);
    expect(report.output.suppressed).toBeLessThanOrEqual(Math.floor(0.02 * 30162));
    // The published report gives the levels (the release shows them), not the search's figures.
    const published = JSON.parse(readFileSync(join(r.dir, 'out', 'report.json'), 'utf8'));
    expect(published.method.levels).toEqual(report.method.levels);
    expect(published.method.internal).toBeUndefined();
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(r.dir, 'out'), '--accept-test-randomness'], { encoding: 'utf8' });
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('ℓ-diversity holds in every released class', () => {
    const r = run({ type: 'partitioned-recoding', parts: 2, model: { type: 'l-diversity', l: 3 }, hierarchies: { age: hierarchies.age }, levels: { age: 2 } });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.guarantee.holds).toBe(true);
    for (const p of report.anonymity.parts) expect(p.worst).toBeGreaterThanOrEqual(3);
  });
});
