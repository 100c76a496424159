import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../src/io/input/csv-reader.js';

const CLI = resolve('dist/cli/custos.mjs');
const ADULT = resolve('resources/adult/adult.csv');

function run(method: Record<string, unknown>): { code: number; stdout: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'custos-dp-'));
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: ADULT }, attributes: { occupation: 'sensitive' }, method, output: { dir: 'out', formats: ['csv'], report: ['json', 'html'] } }));
  const r = spawnSync(process.execPath, [CLI, 'run', join(dir, 'job.json'), '--json', '--test-seed', '8'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, dir };
}

describe('custos run: DP counts', () => {
  it('marginals with exact discrete Laplace noise: one column per queried attribute, then answer, scale and the 95% interval', () => {
    const r = run({ type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex', 'salary-class'], domains: { sex: 'from-data', 'salary-class': 'from-data' } });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    // Three marginals (sex, salary-class, sex × salary-class): Δ = 3, b = 3.
    expect(report.dp).toMatchObject({ sensitivity: 3, scale: 3, queries: 8 });
    expect(report.guarantee).toMatchObject({ name: 'ε-differential privacy of the counts (their cells come from the input)', epsilon: 1 });
    // The reader of the release learns where the cells come from; the remedy is the custodian's, in the internal report only.
    const published = JSON.parse(readFileSync(join(r.dir, 'out', 'report.json'), 'utf8')) as { warnings: string[] };
    expect(published.warnings.join(' ')).toMatch(/cells of “sex”, “salary-class” are the values present in the input/);
    expect(published.warnings.join(' ')).not.toMatch(/method\.domains|Public values/);
    // "from-data" on purpose: the internal report says how to keep the list out of the release.
    expect(report.warnings.join(' ')).toMatch(/Declare the public values of “sex”, “salary-class” \(method\.domains/);
    const { table } = readCsv(join(r.dir, 'out', 'answers.csv'), { missing: [], onBadRow: 'error' });
    expect(table.columns.map((c) => c.name)).toEqual(['NOT_A_PROTECTED_RELEASE', 'sex', 'salary-class', 'answer', 'scale', 'lower95', 'upper95']);
    const row = (i: number) => table.columns.map((c) => c.dictionary[c.codes[i]!]!);
    // A column an answer does not restrict reads "(all)", never blank (which reads as the missing value).
    const rows = Array.from({ length: table.rowCount }, (_, i) => row(i));
    expect(rows.some((x) => x.includes(''))).toBe(false);
    expect(rows.filter((x) => x[2] === '(all)').map((x) => x[1])).toEqual(['Female', 'Male']);
    const male = rows.find((x) => x[1] === 'Male' && x[2] === '(all)')!;
    expect(Math.abs(Number(male[3]) - 20380)).toBeLessThan(60);
    expect(Number.isInteger(Number(male[3]))).toBe(true);
    expect(Number(male[6]) - Number(male[3])).toBe(Number(male[3]) - Number(male[5]));
  });

  it('a repeated query counts once in Δ, in the run and in verify (which passes the release)', () => {
    // Female twice and Male: one record matches Female (both copies, one cached answer) or Male, so Δ = 1.
    const r = run({ type: 'dp-counts', epsilon: 1, queries: [{ where: { sex: 'Female' } }, { where: { sex: 'Male' } }, { where: { sex: 'Female' } }] });
    expect(r.code, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout).dp.sensitivity).toBe(1);
    const verify = spawnSync(process.execPath, [CLI, 'verify', join(r.dir, 'out'), '--json', '--accept-test-randomness'], { encoding: 'utf8' });
    const failed = (JSON.parse(verify.stdout).checks as { name: string; ok: boolean; detail: string }[]).filter((c) => !c.ok);
    expect(failed).toEqual([]);
  });

  it('the released cells never depend on which values occur: absent values print as themselves; undeclared marginal cells are flagged', () => {
    // A query on a value no record holds is answered like any other, its value in its column.
    const explicit = run({ type: 'dp-counts', epsilon: 1, queries: [{ where: { 'native-country': 'Atlantis' } }, { where: { 'native-country': 'Cuba' } }] });
    expect(explicit.code).toBe(0);
    const { table } = readCsv(join(explicit.dir, 'out', 'answers.csv'), { missing: [], onBadRow: 'error' });
    const country = table.columns.find((c) => c.name === 'native-country')!;
    expect(Array.from(country.codes, (code) => country.dictionary[code])).toEqual(['Atlantis', 'Cuba']);
    expect(JSON.parse(explicit.stdout).warnings.join(' ')).not.toMatch(/values present in the input/);
    // Marginals over a declared domain: every declared value is a cell, present or not.
    const declared = run({ type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex'], domains: { sex: ['Female', 'Male', 'Intersex'] } });
    expect(declared.code).toBe(0);
    const cells = readCsv(join(declared.dir, 'out', 'answers.csv'), { missing: [], onBadRow: 'error' }).table.columns.find((c) => c.name === 'sex')!;
    expect(Array.from(cells.codes, (code) => cells.dictionary[code])).toEqual(['Female', 'Male', 'Intersex']);
    expect(JSON.parse(declared.stdout).warnings.join(' ')).not.toMatch(/values present in the input/);
    // With "from-data" the cells come from the data, and the report says so.
    const undeclared = JSON.parse(run({ type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex'], domains: { sex: 'from-data' } }).stdout);
    expect(undeclared.warnings.join(' ')).toMatch(/cells of “sex” are the values present in the input/);
    expect(undeclared.guarantee.statement).toMatch(/not the list of cells/);
    // Records whose value a declared domain misses are refused as an input problem (exit 3), naming how many, the column and the first.
    const narrow = run({ type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex'], domains: { sex: ['Female', 'Other'] } });
    expect(narrow.code).toBe(3);
    expect(JSON.parse(narrow.stdout).error.message).toMatch(/adult\.csv: 20,380 record\(s\) of "sex" hold a value outside its declared domain \("Male"\), the first in data record \d+/);
  });

  it('generalized Laplace noise without a correlation still shares W across the answers: ε_eff = ‖Δ‖₂/b is reported', () => {
    // One record of one sex and age touches one answer of the series: ‖Δ‖₂ = 1, b = 1.
    const r = run({ type: 'dp-counts', epsilon: 1, noise: 'generalized-laplace', series: { by: 'age' }, domains: { age: 'from-data' }, queries: [{ where: { sex: 'Female' } }, { where: { sex: 'Male' } }] });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.dp.epsilonEffective).toBeCloseTo(1, 9);
    expect(report.guarantee.statement).not.toMatch(/see ε_eff/);
  });

  it('series with generalized Laplace noise: ε_eff, the filtering attack and repeated queries cached', () => {
    const r = run({
      type: 'dp-counts', epsilon: 1, noise: 'generalized-laplace', correlation: { model: 'ar1', rho: 0.9 }, series: { by: 'age' }, domains: { age: 'from-data' },
      queries: [{ where: { sex: 'Female' } }, { where: { sex: 'Male' } }, { where: { sex: 'Female' } }],
    });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.dp.sensitivity).toBe(1);
    expect(report.dp.distinctQueries).toBe(144);
    expect(report.dp.queries).toBe(216);
    expect(report.dp.epsilonEffective).toBeCloseTo(Math.sqrt(1.81 / 0.19), 6);
    // The noise is an approximation of Laplace, and the report says so instead of claiming exact samplers.
    expect(report.dp.noise).not.toMatch(/exact grid samplers/);
    expect(report.guarantee.statement).toMatch(/approximation.*floating point.*has not been bounded/);
    expect(report.dp.filtering.length).toBe(2);
    expect(report.guarantee.statement).toMatch(/NOT claimed to be ε-DP/);
    // Issue 30: for two or more answers the joint density is unbounded at zero, so ε_eff is a tail
    // slope, never a privacy-loss bound, and no joint guarantee is claimed to hold.
    const external = JSON.parse(readFileSync(join(r.dir, 'out', 'report.json'), 'utf8'));
    for (const g of [report.guarantee, external.guarantee]) {
      expect(g.holds, 'no joint guarantee is claimed, so none is said to hold').toBeUndefined();
      expect(g.epsilon, 'the per-answer ε is not the release\'s ε').toBeUndefined();
      expect(g.name).toMatch(/for each answer alone .*no guarantee for the answers together/);
      expect(g.statement).toMatch(/tail slope ε_eff = [\d.]+: the rate at which its privacy loss grows far from the true answers, not a bound on the loss/);
      expect(g.statement).toMatch(/joint density of the noise is unbounded at zero/);
      expect(g.statement).not.toMatch(/the worst one-person change has ε_eff/);
    }
    expect(external.dp.epsilonPerAnswer).toBeCloseTo(1, 12);
    expect(report.summary.join(' ')).toMatch(/no ε guarantee \(the report's effective ε is a tail slope, not a bound\)/);
    const html = readFileSync(join(r.dir, 'out', 'report.html'), 'utf8');
    expect(html).toMatch(/<span class="verdict none">no guarantee is claimed for the release as a whole<\/span>/);
    // The guarantee's verdict (the disclosure review's own verdict has its heading).
    expect(html).not.toMatch(/<h2>Guarantee <span class="verdict ok">/);
    const lines = readFileSync(join(r.dir, 'out', 'answers.csv'), 'utf8').trim().split('\r\n').slice(1);
    const female = lines.filter((l) => l.split(',')[1] === 'Female');
    // The repeated query (Female again) returns exactly the cached answers.
    expect(female.length).toBe(144);
    const byAge = new Map<string, Set<string>>();
    for (const l of female) {
      const c = l.split(',');
      byAge.set(c[2]!, (byAge.get(c[2]!) ?? new Set()).add(c[3]!));
    }
    for (const answers of byAge.values()) expect(answers.size).toBe(1);
  });

  it('rejects invalid ε, ρ beyond the cap and unknown columns with exit 2, writing nothing', () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ type: 'dp-counts', epsilon: 0, queries: 'marginals', columns: ['sex'] }, 'method.epsilon', /epsilon must be > 0/],
      [{ type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex'], noise: 'generalized-laplace', correlation: { model: 'ar1', rho: 0.99 } }, 'method.correlation.rho', /capped at 0\.95/],
      [{ type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex', 'zodiac'], domains: { sex: 'from-data' } }, 'method.columns[1]', /no column "zodiac"/],
      // A cell column (marginals, series) without a domain decision: refused, naming the key and the three ways to decide.
      [{ type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex'] }, 'method.domains.sex', /decides no domain for "sex".*"value-labels".*\{"hierarchy": "FILE\.csv"\}.*"from-data" knowing that the release then shows which values occur/],
      [{ type: 'dp-counts', epsilon: 1, series: { by: 'age' }, queries: [{ where: { sex: 'Female' } }] }, 'method.domains.age', /decides no domain for "age"/],
      [{ type: 'dp-counts', epsilon: 1, queries: [{ where: { planet: 'Mars' } }] }, 'method.queries[0].where.planet', /no column "planet"/],
    ];
    for (const [method, key, message] of cases) {
      const r = run(method);
      expect(r.code, JSON.stringify(method)).toBe(2);
      const error = JSON.parse(r.stdout).error;
      expect(error.key).toBe(key);
      expect(error.message).toMatch(message);
      expect(readdirSync(r.dir)).toEqual(['job.json']);
    }
  });

  it('parts: records assigned independently, parallel composition under add/remove, ε′ of one part from 1/P alone', () => {
    const r = run({ type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['sex'], parts: 2, domains: { sex: 'from-data' } });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    // A Poisson sample at rate 1/2: ln(1 + (e − 1)/2), whatever n is.
    expect(report.dp.epsilonPrime[0].epsilonPrime).toBeCloseTo(Math.log1p(Math.expm1(1) / 2), 12);
    expect(report.guarantee.statement).toMatch(/independently and uniformly at random.*parallel composition \(add\/remove neighbours\)/);
    expect(report.guarantee.statement).not.toMatch(/bounded/);
    expect(report.dp.epsilonPrime[0].reported).toBe(report.dp.epsilonPrime[0].epsilonPrime);
    expect(report.dp.queries).toBe(4);
  });
});
