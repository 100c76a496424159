import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 36: every risk figure in `assess --json` and the internal report (risk.profile), and the
 * review's threshold on individual risk. Each figure is computed again here from the
 * records by a small calculation of its own; population uniqueness is compared with ARX 3.9.2's
 * figures on Adult (test/fixtures/arx, made by ARX itself).
 */
const CLI = resolve('dist/cli/custos.mjs');

/** Real randomness: a seeded test run is never publishable, and its review does not stop it. */
const env = (): NodeJS.ProcessEnv => {
  const { CUSTOS_TEST_RANDOMNESS: _seeded, ...rest } = process.env;
  return rest;
};
const custos = (dir: string, ...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: env() });

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-risk-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const job = (input: Record<string, unknown>, attributes: Record<string, string>, sensitive: string, review: Record<string, unknown>, report: string[] = ['json']) =>
  JSON.stringify({ version: 1, input, attributes, method: { type: 'uniform-perturbation', retention: 0.5, domains: { [sensitive]: 'from-data' } }, review, output: { dir: 'out', formats: ['csv'], report } });

/** E[1/F | f] with pk = π (Benedetti–Franconi as sdcMicro's measure_risk computes it), written out here. */
function bf(f: number, pi: number): number {
  const q = 1 - pi;
  if (f === 1) return (pi / q) * Math.log(1 / pi);
  if (f === 2) return (pi / (q * q)) * (pi * Math.log(pi) + q);
  return pi / (f - q);
}

interface Arx {
  quasiIdentifiers: string[];
  fraction: number;
  populationSize: number;
  classSizeFrequencies: [number, number][];
  populationUniques: Record<string, number>;
  dankarChoice: string;
}

describe('population uniqueness in assess --json equals ARX 3.9.2 on Adult', () => {
  const arx = (JSON.parse(readFileSync('test/fixtures/arx/population-uniqueness.json', 'utf8')) as { settings: Arx[] }).settings;
  const columns = ['sex', 'age', 'race', 'marital-status', 'education', 'native-country', 'workclass', 'occupation', 'salary-class'];
  const settings = arx.filter((s) => [0.01, 0.1].includes(s.fraction) && ['age,sex,race', 'age,education,sex,native-country'].includes(s.quasiIdentifiers.join(',')));

  it.each(settings.map((s) => [s.quasiIdentifiers.join(', '), s.fraction, s] as const))('{%s} at π = %s', (_name, fraction, s) => {
    const dir = folder({});
    copyFileSync('resources/adult/adult.csv', join(dir, 'adult.csv'));
    const roles = Object.fromEntries(columns.map((c) => [c, s.quasiIdentifiers.includes(c) ? 'quasi' : c === 'salary-class' ? 'sensitive' : 'insensitive']));
    writeFileSync(join(dir, 'job.json'), job({ path: 'adult.csv', delimiter: ';' }, roles, 'salary-class', { samplingFraction: fraction }));
    const r = custos(dir, 'assess', 'job.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    const profile = JSON.parse(r.stdout).risk.profile;
    expect(profile.basis).toBe('input');
    expect(profile.sampleUniques).toBe(s.classSizeFrequencies.find(([size]) => size === 1)?.[1] ?? 0);
    expect(profile.classes).toBe(s.classSizeFrequencies.reduce((sum, [, c]) => sum + c, 0));
    expect(profile.population.size).toBe(s.populationSize);
    for (const e of profile.population.estimates as { model: string; populationUniques?: number }[]) {
      const reference = s.populationUniques[e.model.toUpperCase()]!;
      // ARX reports 0 where its solver finds no solution; Custos leaves the figure out.
      if (reference === 0) expect(e.populationUniques).toBeUndefined();
      else expect(Math.abs(e.populationUniques! / reference - 1)).toBeLessThan(1e-6);
    }
    expect(profile.population.dankar.model).toBe(s.dankarChoice.toLowerCase());
    expect(Math.abs(profile.population.dankar.populationUniques / s.populationUniques['DANKAR']! - 1)).toBeLessThan(1e-6);
  }, 60_000);
});

/** 40 records: sex × band in four classes of 10, a sensitive column; `extra` rows appended. */
function register(extra: string[] = []): string {
  const rows = ['sex,band,outcome'];
  for (let i = 0; i < 40; i++) rows.push(`${i % 2 ? 'F' : 'M'},${i % 4 < 2 ? 'young' : 'old'},${i % 3 ? 'yes' : 'no'}`);
  return [...rows, ...extra].join('\n') + '\n';
}
const ROLES = { sex: 'quasi', band: 'quasi', outcome: 'sensitive' };

describe('every risk figure of a small file, computed again here', () => {
  it('class sizes, k-map, individual risk with its histogram and riskiest records, SUDA2', () => {
    // Three records more: a unique (F, middle), and a pair (M, middle).
    const dir = folder({ 'data.csv': register(['F,middle,yes', 'M,middle,no', 'M,middle,yes']), 'job.json': job({ path: 'data.csv' }, ROLES, 'outcome', { samplingFraction: 0.2 }) });
    const r = custos(dir, 'assess', 'job.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    const p = JSON.parse(r.stdout).risk.profile;
    const text = readFileSync(join(dir, 'data.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const key = (row: string[]) => `${row[0]}|${row[1]}`;
    const size = (row: string[]) => text.filter((o) => key(o) === key(row)).length;
    expect(p.quasiIdentifiers).toEqual(['sex', 'band']);
    expect(p.records).toBe(43);
    expect(p.classes).toBe(new Set(text.map(key)).size);
    expect(p.sampleUniques).toBe(text.filter((row) => size(row) === 1).length);
    expect(p.kMap.highest).toBeCloseTo(0.2 / Math.min(...text.map(size)), 12);
    expect(p.kMap.average).toBeCloseTo(text.reduce((s, row) => s + 0.2 / size(row), 0) / 43, 12);
    const risks = text.map((row) => bf(size(row), 0.2));
    expect(p.individual.basis).toBe('sampling-fraction');
    expect(p.individual.highest).toBeCloseTo(Math.max(...risks), 12);
    expect(p.individual.expectedReidentifications).toBeCloseTo(risks.reduce((a, b) => a + b, 0), 12);
    expect(p.individual.histogram.map((b: { records: number }) => b.records).reduce((a: number, b: number) => a + b, 0)).toBe(43);
    expect(p.individual.riskiest[0]).toEqual({ record: 41, values: ['F', 'middle'], classSize: 1, weightSum: 5, risk: bf(1, 0.2) });
    expect(p.individual.riskiest.slice(1, 3).map((x: { record: number; classSize: number }) => [x.record, x.classSize])).toEqual([[42, 2], [43, 2]]);
    // SUDA2: record 41 is the only unique; 21 records share its sex and 3 its band, so its one MSU is
    // {sex, band}, the whole key: no special unique.
    expect(p.suda.maxSize).toBe(2);
    expect(p.suda.recordsWithMsu).toBe(1);
    expect(p.suda.specialUniques).toBe(0);
    expect(p.suda.msusBySize).toEqual([0, 1]);
    // Its score is (max(M, 3) − 2)! = 1.
    expect(p.suda.highestScore).toBe(1);
    expect(p.population.estimates.map((e: { model: string }) => e.model)).toEqual(['pitman', 'zayatz', 'snb']);
  });

  it('SPSS case weights are the individual risk\'s weights: a class whose weights sum below its size is named', () => {
    const dir = folder({});
    copyFileSync('test/fixtures/spss/weighted.sav', join(dir, 'weighted.sav'));
    writeFileSync(join(dir, 'job.json'), job({ path: 'weighted.sav' }, { id: 'identifier', 'größe': 'quasi', sex: 'sensitive', allmis: 'insensitive', dt: 'identifier', wt: 'insensitive', tm: 'insensitive', big: 'identifier' }, 'sex', {}));
    const r = custos(dir, 'assess', 'job.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    // größe: "aaé" twice (weights 2.5 + 1.0), "bb" once with weight 0.5 < 1.
    expect(JSON.parse(r.stdout).risk.profile.individual).toEqual({ skipped: expect.stringMatching(/the weights of wt: record 3: a class of 1 records has weights summing to 0\.5/) });
  });
});

describe('the review threshold on individual risk', () => {
  // Four classes of 10, π = 0.1: highest individual risk 0.1 / (10 − 0.9).
  const individual = bf(10, 0.1);
  const run = (review: Record<string, unknown>) => {
    const dir = folder({ 'data.csv': register(), 'job.json': job({ path: 'data.csv' }, ROLES, 'outcome', { samplingFraction: 0.1, ...review }, ['json', 'html']) });
    return { dir, r: custos(dir, 'run', 'job.json') };
  };

  it('a highest individual risk above the limit fails the review: exit 4, the check named, nothing written', () => {
    const { dir, r } = run({ maxIndividualRisk: 0.01 });
    expect(r.status, r.stderr).toBe(4);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(r.stderr).toContain(`individual-risk: highest individual risk ${individual.toFixed(4)} in release.csv`);
  });

  it('within the limit the run writes; the figures are published with the review and verified, the profile stays internal', () => {
    const { dir, r } = run({ maxIndividualRisk: 0.011 });
    expect(r.status, r.stderr).toBe(0);
    const published = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    const internal = JSON.parse(readFileSync(join(dir, 'out-internal', 'internal-report.json'), 'utf8'));
    expect(published.review.verdict).toBe('passed');
    const figures = published.review.identity[0].risk;
    expect(figures.individualRiskHighest).toBeCloseTo(individual, 12);
    expect(published.review.checks.filter((c: { check: string }) => c.check === 'individual-risk').map((c: { passed: boolean }) => c.passed)).toEqual([true]);
    expect(published.risk.profile).toBeUndefined();
    expect(internal.risk.profile.basis).toBe('release');
    expect(internal.risk.profile.individual.highest).toBeCloseTo(individual, 12);
    const v = custos(dir, 'verify', 'out');
    expect(v.stdout).toMatch(/ok +disclosure review: passed/);
    // The internal report's HTML shows the profile with the riskiest records; the published one does not.
    const html = readFileSync(join(dir, 'out-internal', 'internal-report.html'), 'utf8');
    expect(html).toContain('<h2>Risk profile</h2>');
    expect(html).toMatch(/<h3>The riskiest records<\/h3>\s*<table><thead><tr><th>Record<\/th><th>sex<\/th><th>band<\/th>/);
    expect(readFileSync(join(dir, 'out', 'report.html'), 'utf8')).not.toContain('Risk profile');
  });

  it('a limit without a population is a job error naming the key (exit 2)', () => {
    const dir = folder({ 'data.csv': register(), 'job.json': job({ path: 'data.csv' }, ROLES, 'outcome', { maxIndividualRisk: 0.1 }) });
    const r = custos(dir, 'assess', 'job.json');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/review\.maxIndividualRisk.*needs review\.populationSize or review\.samplingFraction/);
  });
});
