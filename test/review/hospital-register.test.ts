import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { pdfText } from '../../src/io/input/pdf-text.js';
// @ts-expect-error -- a plain ES module script without types
import { hospitalRegister } from '../../scripts/hospital-register.mjs';

const CLI = resolve('dist/cli/custos.mjs');
const require = createRequire(import.meta.url);

/** Real randomness: a seeded test run is never publishable, and its review does not stop it. */
const env = (): NodeJS.ProcessEnv => {
  const { CUSTOS_TEST_RANDOMNESS: _seeded, ...rest } = process.env;
  return rest;
};

const ROLES = { patient_id: 'identifier', name: 'identifier', birth_date: 'quasi', sex: 'quasi', postcode: 'quasi', municipality: 'quasi', diagnosis: 'sensitive', length_of_stay: 'insensitive', comment: 'quasi' };

/** The register of issue 34 (scripts/hospital-register.mjs) in a fresh folder, with `job` beside it. */
function register(job: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-review-'));
  writeFileSync(join(dir, 'register.csv'), (hospitalRegister as (n: number) => string)(400));
  writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'register.csv' }, output: { dir: 'out', formats: ['csv'], report: ['json'] }, ...job }));
  return dir;
}

const custos = (dir: string, ...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: env() });

const reconstruction = { attributes: ROLES, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data' } } };

/** Birth dates recoded (date hierarchy), sex maskable, postcode and comment removed, k = 5. */
const recoding = {
  attributes: { ...ROLES, postcode: 'identifier', comment: 'identifier' },
  method: { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 5 }], hierarchies: { birth_date: { type: 'date' }, sex: { type: 'masking', length: 1 } } },
};

describe('the disclosure review on the hospital register of issue 34', () => {
  it('refuses the reconstruction-privacy release: exit 4, nothing written, birth date, postcode and comment named with their fix', () => {
    const dir = register(reconstruction);
    const r = custos(dir, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(4);
    expect(r.stdout).not.toMatch(/publishable/);
    expect(r.stderr).toMatch(/failed its disclosure review, so nothing was written/);
    for (const [column, kind] of [['birth_date', 'full-date'], ['postcode', 'full-postcode'], ['comment', 'free-text']]) expect(r.stderr).toContain(`${column}: ${kind}`);
    expect(r.stderr).toMatch(/prosecutor-risk: highest prosecutor risk 1\.0000/);
    expect(r.stderr).toMatch(/Fix: remove or recode birth_date, postcode, comment/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, 'out-internal'))).toBe(false);
  });

  it('assess shows the same review, projected, with what the method assumes the attacker knows', () => {
    const dir = register(reconstruction);
    const r = custos(dir, 'assess', 'job.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/the disclosure review fails: run would write nothing and exit 4/);
    const review = JSON.parse(r.stdout).review;
    expect(review.basis).toBe('projected');
    expect(review.verdict).toBe('failed');
    expect(review.attacker).toMatch(/already knows who is in the file and their quasi-identifiers; it protects diagnosis only/);
    expect(review.directIdentifiers.map((d: { column: string }) => d.column).sort()).toEqual(['birth_date', 'comment', 'postcode']);
  });

  it('writes it when the job accepts the failed checks with a reason: not called publishable, the reason internal only, verify says accepted', () => {
    const reason = 'released to the register team only, under contract 34';
    const dir = register({ ...reconstruction, review: { acknowledge: [{ check: 'direct-identifiers', reason }, { check: 'prosecutor-risk', reason }] } });
    const r = custos(dir, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/wrote the release \(the disclosure review failed; the custodian accepted direct-identifiers, prosecutor-risk\)/);
    const published = readFileSync(join(dir, 'out', 'report.json'), 'utf8');
    const internal = JSON.parse(readFileSync(join(dir, 'out-internal', 'internal-report.json'), 'utf8'));
    expect(JSON.parse(published).review.verdict).toBe('accepted');
    expect(published).not.toContain(reason);
    expect(readFileSync(join(dir, 'out', 'job.json'), 'utf8')).not.toContain(reason);
    expect(internal.review.acknowledgements).toEqual([{ check: 'direct-identifiers', reason }, { check: 'prosecutor-risk', reason }]);
    const v = custos(dir, 'verify', 'out');
    expect(v.stdout).toMatch(/ok +disclosure review: failed and accepted by the custodian/);
  });

  it('passes the global recoding with those columns removed or recoded, and verify recomputes the published figures', () => {
    const dir = register(recoding);
    const r = custos(dir, 'run', 'job.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.review.verdict).toBe('passed');
    expect(report.review.directIdentifiers).toEqual([]);
    expect(report.review.identity[0].prosecutorHighest).toBeLessThanOrEqual(0.2);
    // Recounted here from the CSV: the smallest class on the released quasi-identifiers.
    const lines = readFileSync(join(dir, 'out', 'release.csv'), 'utf8').trim().split('\r\n');
    const header = lines[0]!.split(',');
    const at = ['birth_date', 'sex', 'municipality'].map((c) => header.indexOf(c));
    const sizes = new Map<string, number>();
    for (const line of lines.slice(1)) {
      const cells = line.split(',');
      const key = at.map((i) => cells[i]).join('\u0000');
      sizes.set(key, (sizes.get(key) ?? 0) + 1);
    }
    expect(report.review.identity[0].prosecutorHighest).toBe(1 / Math.min(...sizes.values()));
    expect(report.review.identity[0].classes).toBe(sizes.size);
    const v = custos(dir, 'verify', 'out');
    expect(v.status, v.stdout).toBe(0);
    expect(v.stdout).toMatch(/ok +disclosure review: passed, every figure as computed again/);

    // A published figure changed (and the checksums with it, as a forger would): the review computed again disagrees.
    const forged = { ...report, review: { ...report.review, identity: [{ ...report.review.identity[0], sampleUniques: 1 }] } };
    writeFileSync(join(dir, 'out', 'report.json'), JSON.stringify(forged, null, 2) + '\n');
    const tampered = custos(dir, 'verify', 'out');
    expect(tampered.stdout).toMatch(/FAIL +disclosure review: computed again from the released files, the review differs/);
  });

  it('a population size gives Dankar\'s estimate of population uniques from the released classes, and its threshold is judged', () => {
    // Classes of at least 5 records: no sample unique, so every model estimates no population unique.
    const passing = register({ ...recoding, review: { populationSize: 40_000, maxPopulationUniqueShare: 0.001 } });
    expect(custos(passing, 'run', 'job.json').status).toBe(0);
    const report = JSON.parse(readFileSync(join(passing, 'out', 'report.json'), 'utf8'));
    expect(report.review.identity[0].population).toMatchObject({ fraction: 400 / 40_000, populationUniques: 0, populationUniqueShare: 0 });
    expect(report.review.checks.find((c: { check: string }) => c.check === 'population-uniques').passed).toBe(true);

    // Every record unique in a 1 % sample: Dankar's rule (Pitman at f ≤ 0.1) estimates many population uniques; only that check is not accepted.
    const reason = 'testing the threshold';
    const failing = register({ ...reconstruction, review: { populationSize: 40_000, maxPopulationUniqueShare: 0.001, acknowledge: [{ check: 'direct-identifiers', reason }, { check: 'prosecutor-risk', reason }] } });
    const r = custos(failing, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(4);
    expect(r.stderr).toMatch(/population-uniques: an estimated [\d.]+ % of the population is unique on the released quasi-identifiers \(Dankar et al\.\), limit 0\.1 %/);
    expect(r.stderr).not.toMatch(/— direct-identifiers/);
    expect(existsSync(join(failing, 'out'))).toBe(false);
  });
  it('a population gives the journalist (k-map) risk of the release, "*" of local suppression matching every value, judged against review.maxJournalistRisk; verify computes it again', () => {
    const suppression = {
      attributes: { ...ROLES, birth_date: 'identifier', postcode: 'identifier', comment: 'identifier', length_of_stay: 'quasi' },
      method: { type: 'global-recoding', models: [], localSuppression: { k: 5 } },
    };
    const dir = register({ ...suppression, review: { populationSize: 40_000, maxJournalistRisk: 0.01 } });
    const r = custos(dir, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(0);
    const review = JSON.parse(readFileSync(join(dir, 'out', 'report.json'), 'utf8')).review;
    // Recounted here from the CSV: each record's compatible records, "*" matching any value.
    const lines = readFileSync(join(dir, 'out', 'release.csv'), 'utf8').trim().split('\r\n');
    const header = lines[0]!.split(',');
    const at = ['sex', 'municipality', 'length_of_stay'].map((c) => header.indexOf(c));
    const records = lines.slice(1).map((line) => at.map((i) => line.split(',')[i]!));
    expect(records.some((t) => t.includes('*'))).toBe(true);
    const fk = records.map((t) => records.filter((u) => t.every((v, j) => v === '*' || u[j] === '*' || u[j] === v)).length);
    const fraction = records.length / 40_000;
    const smallest = Math.min(...fk);
    const journalist = review.identity[0].population.journalist;
    expect(journalist.k).toBeCloseTo(smallest / fraction, 9);
    expect(journalist.highest).toBeCloseTo(fraction / smallest, 12);
    expect(journalist.average).toBeCloseTo(fk.reduce((sum, f) => sum + fraction / f, 0) / fk.length, 12);
    expect(review.identity[0].population.model).toMatch(/"\*" matches every value/);
    expect(review.checks.find((c: { check: string }) => c.check === 'journalist-risk')).toMatchObject({ passed: true, severity: 'fail' });
    const v = custos(dir, 'verify', 'out');
    expect(v.stdout).toMatch(/ok +disclosure review: passed, every figure as computed again from the released files \(.*journalist-risk/);

    // The same release against a limit it exceeds: exit 4, the check named with its fix.
    const strict = register({ ...suppression, review: { populationSize: 40_000, maxJournalistRisk: 0.0001 } });
    const refused = custos(strict, 'run', 'job.json');
    expect(refused.status, refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(/journalist-risk: highest journalist \(k-map\) risk 0\.\d+ .*limit 0\.0001\. Fix: generalize or suppress the quasi-identifiers \(sex, municipality, length_of_stay\) until every released class stands for at least 10,000 people/);
  });

  it('assess projects the population figures too: Dankar\'s estimate and the journalist risk from the input\'s classes when nothing is recoded', () => {
    const dir = register({ ...reconstruction, review: { populationSize: 40_000 } });
    const r = custos(dir, 'assess', 'job.json', '--json');
    expect(r.status, r.stderr).toBe(0);
    const identity = JSON.parse(r.stdout).review.identity[0];
    expect(identity.population).toMatchObject({ fraction: 400 / 40_000, model: expect.stringMatching(/^Dankar et al\. \(2012\): /) });
    expect(identity.population.populationUniques).toBeGreaterThan(0);
    // Every record unique on the quasi-identifiers: each stands for 1 / π = 100 people.
    expect(identity.sampleUniqueShare).toBe(1);
    expect(identity.population.journalist.k).toBeCloseTo(100, 9);
    expect(identity.population.journalist.highest).toBeCloseTo(0.01, 12);
    expect(identity.population.journalist.average).toBeCloseTo(0.01, 12);
  });
  it('the PDF and the workbook\'s Report sheet show the review as the HTML does: verdict, checks and the acknowledgement; verify renders them again', () => {
    const reason = 'released to the register team only, under contract 34';
    const dir = register({
      ...reconstruction,
      review: { acknowledge: [{ check: 'direct-identifiers', reason }, { check: 'prosecutor-risk', reason }] },
      output: { dir: 'out', formats: ['csv', 'xlsx'], report: ['html', 'pdf', 'json'] },
    });
    const r = custos(dir, 'run', 'job.json');
    expect(r.status, r.stderr).toBe(0);
    const flat = (text: string): string => text.replace(/\s+/g, ' ');
    const acknowledgement = 'The custodian accepted the stated risk of the failed checks direct-identifiers, prosecutor-risk and released the file all the same';
    const pdf = flat(pdfText(readFileSync(join(dir, 'out', 'report.pdf'))));
    const html = flat(readFileSync(join(dir, 'out', 'report.html'), 'utf8'));
    const XLSX = require('xlsx') as typeof import('xlsx');
    const sheet = flat(XLSX.utils.sheet_to_csv(XLSX.read(readFileSync(join(dir, 'out', 'release.xlsx'))).Sheets['Report']!));
    for (const [name, text] of [['report.pdf', pdf], ['report.html', html], ['release.xlsx', sheet]] as const) {
      expect(text, name).toContain('Disclosure review');
      expect(text, name).toContain('failed; the custodian accepted the stated risk');
      expect(text, name).toContain(`${acknowledgement}; the reasons are kept in the internal report.`);
      expect(text, name).toContain('already knows who is in the file and their quasi-identifiers; it protects diagnosis only');
      expect(text, name).toMatch(/prosecutor-risk.{0,12}failed, accepted: highest prosecutor risk 1\.0000/);
      expect(text, name).toMatch(/rare-sensitive \(warning\)/);
      expect(text, name).not.toContain(reason);
    }
    // The internal report names the reasons.
    const internal = flat(pdfText(readFileSync(join(dir, 'out-internal', 'internal-report.pdf'))));
    expect(internal).toContain(`${acknowledgement}, for these reasons: direct-identifiers: ${reason}; prosecutor-risk: ${reason}.`);
    const v = custos(dir, 'verify', 'out');
    expect(v.status, v.stdout).toBe(0);
    expect(v.stdout).toMatch(/ok +disclosure review: failed and accepted by the custodian/);
  });
});
