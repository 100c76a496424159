import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTable } from '../../src/io/input/read-table.js';
import { resolveDomain } from '../../src/jobs/method-kit/domains.js';
import { JobError } from '../../src/common/job/job-error.js';
import { parseJob } from '../../src/jobs/load-job.js';
import { jobSkeleton } from '../../src/jobs/job-skeleton.js';

const CLI = resolve('dist/cli/custos.mjs');
/** A value only one record holds: it must never leave unless the job takes the domain from the data on purpose. */
const CANARY = 'Zebra-fever-7731';
const COMMON = ['flu', 'cold', 'asthma'];

/** 240 records: age and sex known to others, a diagnosis to protect; record 150 holds the canary when asked. */
function dataset(dir: string, withCanary: boolean): string {
  const rows = Array.from({ length: 240 }, (_, i) => `${20 + (i % 4) * 10},${i % 2 ? 'F' : 'M'},${withCanary && i === 149 ? CANARY : COMMON[i % 3]}`);
  const path = join(dir, withCanary ? 'people.csv' : 'people-clean.csv');
  writeFileSync(path, ['age,sex,diagnosis', ...rows].join('\n') + '\n');
  return path;
}

function run(dir: string, name: string, input: string, method: Record<string, unknown>, extra: Record<string, unknown> = {}, sensitive = 'diagnosis') {
  const job = { version: 1, input: { path: input, ...extra }, attributes: { [sensitive]: 'sensitive' }, method, output: { dir: `out-${name}`, formats: ['csv'], report: ['json', 'html'] } };
  writeFileSync(join(dir, `${name}.json`), JSON.stringify(job));
  const r = spawnSync(process.execPath, [CLI, 'run', join(dir, `${name}.json`), '--json', '--test-seed', '3'], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  const out = join(dir, `out-${name}`);
  const published = (): { warnings: string[]; guarantee: { statement: string } } => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
  const internal = (): { warnings: string[] } => JSON.parse(readFileSync(join(`${out}-internal`, 'internal-report.json'), 'utf8'));
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, out, published, internal };
}

const UP = { type: 'uniform-perturbation', retention: 0.5 };
const RP = { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 };
const BETA = { type: 'beta-privacy', beta: { coefficient: 4 }, maxBucket: 60 };

describe('the domain of a sensitive column is a decision of the job', () => {
  it('a declared domain that leaves out the canary refuses its record (exit 3: how many, the column, the first record), and writes no release', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-domain-'));
    const input = dataset(dir, true);
    for (const method of [UP, RP]) {
      const r = run(dir, method.type, input, { ...method, domains: { diagnosis: [...COMMON, 'measles'] } });
      expect(r.code, r.stderr).toBe(3);
      expect(JSON.parse(r.stdout).error.message).toBe(
        `people.csv: 1 record(s) of "diagnosis" hold a value outside its declared domain ("${CANARY}"), the first in data record 150: ` +
          'add the value(s) to the domain if they are public, or correct or remove those records; Custos does not drop or recode them',
      );
      expect(existsSync(r.out)).toBe(false);
    }
    // dp-counts' cells follow the same rule.
    const dp = run(dir, 'dp', input, { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['diagnosis'], domains: { diagnosis: COMMON } });
    expect(dp.code).toBe(3);
    expect(JSON.parse(dp.stdout).error.message).toMatch(/1 record\(s\) of "diagnosis" .*\("Zebra-fever-7731"\), the first in data record 150/);
  }, 60_000);

  it('a declared domain is public: the release holds only its values, the guarantee says so and no domain warning is published', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-domain-'));
    const input = dataset(dir, false);
    const r = run(dir, 'up', input, { ...UP, domains: { diagnosis: [...COMMON, 'measles'] } });
    expect(r.code, r.stderr).toBe(0);
    const released = readFileSync(join(r.out, 'release.csv'), 'utf8').trim().split('\r\n').slice(1).map((line) => line.split(',').at(-1));
    expect(new Set(released).size).toBeGreaterThan(1);
    for (const value of released) expect([...COMMON, 'measles']).toContain(value);
    const published = r.published();
    expect(published.guarantee.statement).toMatch(/The domain of “diagnosis” \(m = 4\) is declared in the job \(listed\) and public: every released value of it is a declared value, and an input holding any other value is refused, never mapped or dropped\./);
    expect(published.warnings.join(' ')).not.toMatch(/taken from the values present/);
  }, 60_000);

  it('"from-data" chosen on purpose runs, and the published report names what it reveals', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-domain-'));
    const input = dataset(dir, true);
    const explicit = run(dir, 'explicit', input, { ...UP, domains: { diagnosis: 'from-data' } });
    expect(explicit.code, explicit.stderr).toBe(0);
    const warning = /The domain of “diagnosis” was taken from the values present in the input, not declared: .*the release shows that each of these values occurs in the confidential file.*ρ1–ρ2 privacy assumes a public domain/;
    expect(explicit.published().warnings.join(' ')).toMatch(warning);
    expect(readFileSync(join(explicit.out, 'report.html'), 'utf8')).toMatch(/each of these values occurs in the confidential file/);
    expect(explicit.published().guarantee.statement).toMatch(/The domain of “diagnosis” was taken from the input: the guarantee does not cover which values occur/);
    // The remedy is the custodian's: in the internal report only.
    expect(explicit.internal().warnings.join(' ')).toMatch(/Declare the public values of “diagnosis” \(method\.domains\)/);
    expect(explicit.published().warnings.join(' ')).not.toMatch(/method\.domains/);
    const rp = run(dir, 'rp', input, { ...RP, domains: { diagnosis: 'from-data' } });
    expect(rp.code, rp.stderr).toBe(0);
    expect(rp.published().warnings.join(' ')).toMatch(/The domain of “diagnosis” was taken from the values present in the input, not declared: .*\(ε,δ\)-reconstruction privacy assumes a public domain/);
  }, 60_000);

  it('no decision at all is refused (exit 2) naming the key and the ways to decide, before anything is written; assess refuses it too', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-domain-'));
    const input = dataset(dir, true);
    for (const method of [UP, RP, BETA]) {
      const r = run(dir, `undecided-${method.type}`, input, method);
      expect(r.code, r.stderr).toBe(2);
      const error = JSON.parse(r.stdout).error as { key: string; message: string };
      expect(error.key).toBe('method.domains.diagnosis');
      expect(error.message).toBe(
        'method.domains.diagnosis: the job decides no domain for "diagnosis" (the values its release can show): declare the public values, "domains": {"diagnosis": ["value 1", "value 2", …]}, ' +
          'or take them from an SPSS/Stata file\'s value labels ("value-labels") or a hierarchy file\'s first column ({"hierarchy": "FILE.csv"}); ' +
          'or write "from-data" knowing that the release then shows which values occur in the confidential file (custos init proposes the declared form)',
      );
      expect(existsSync(r.out)).toBe(false);
      expect(existsSync(`${r.out}-internal`)).toBe(false);
    }
    const assess = spawnSync(process.execPath, [CLI, 'assess', join(dir, 'undecided-uniform-perturbation.json')], { encoding: 'utf8' });
    expect(assess.status).toBe(2);
    expect(assess.stderr).toMatch(/method\.domains\.diagnosis: the job decides no domain for "diagnosis"/);
  }, 60_000);

  it('β-privacy: a declared domain refuses the canary\'s record (exit 3); declared values no record holds are listed with their β (the coefficient gives 0) and may be fakes; "from-data" publishes its warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-domain-'));
    const withCanary = dataset(dir, true);
    const refused = run(dir, 'beta-refused', withCanary, { ...BETA, domains: { diagnosis: [...COMMON, 'measles'] } });
    expect(refused.code, refused.stderr).toBe(3);
    expect(JSON.parse(refused.stdout).error.message).toMatch(/1 record\(s\) of "diagnosis" hold a value outside its declared domain \("Zebra-fever-7731"\), the first in data record 150/);
    expect(existsSync(refused.out)).toBe(false);
    // Declared: m counts the declared values; "measles" (no record) gets β = c·0 = 0 and can only be a fake.
    const clean = dataset(dir, false);
    const declared = run(dir, 'beta-declared', clean, { ...BETA, fakeValues: 1, domains: { diagnosis: [...COMMON, 'measles', 'mumps'] } });
    expect(declared.code, declared.stderr).toBe(0);
    const report = declared.published() as unknown as { beta: { values: { value: string; betaExact: string }[] }; guarantee: { statement: string }; warnings: string[] };
    expect(report.beta.values.map((v) => v.value)).toEqual([...COMMON, 'measles', 'mumps']);
    expect(report.beta.values.find((v) => v.value === 'measles')!.betaExact).toBe('0');
    expect(report.guarantee.statement).toMatch(/The domain of “diagnosis” \(m = 5\) is declared in the job \(listed\) and public: every released value of it is a declared value, and an input holding any other value is refused, never mapped or dropped\./);
    expect(report.warnings.join(' ')).not.toMatch(/taken from the values present/);
    const [header, ...lines] = readFileSync(join(declared.out, 'st.csv'), 'utf8').trim().split('\r\n');
    const at = header!.split(',').indexOf('diagnosis');
    expect(at).toBeGreaterThanOrEqual(0);
    for (const value of lines.map((line) => line.split(',')[at])) expect([...COMMON, 'measles', 'mumps']).toContain(value);
    // From the data, on purpose: the published warning says what the domain adds and what β-privacy does not cover.
    const fromData = run(dir, 'beta-from-data', withCanary, { ...BETA, domains: { diagnosis: 'from-data' } });
    expect(fromData.code, fromData.stderr).toBe(0);
    expect(fromData.published().warnings.join(' ')).toMatch(/The domain of “diagnosis” was taken from the values present in the input, not declared: the report's β table lists exactly these values and every fake value is one of them\. ST shows each value that occurs .*β-privacy bounds what is inferred about a person, not which values occur\./);
    expect(fromData.published().guarantee.statement).toMatch(/The domain of “diagnosis” was taken from the input: the guarantee does not cover which values occur/);
    expect(fromData.internal().warnings.join(' ')).toMatch(/Declare the public values of “diagnosis” \(method\.domains/);
  }, 60_000);

  it('a hierarchy file\'s first column is a declared domain; the published job keeps its name out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-domain-'));
    const input = dataset(dir, false);
    writeFileSync(join(dir, 'diagnoses-2025.csv'), 'flu;respiratory;*\ncold;respiratory;*\nasthma;chronic;*\nmeasles;infectious;*\n');
    const r = run(dir, 'hier', input, { ...RP, domains: { diagnosis: { hierarchy: 'diagnoses-2025.csv' } } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.published().guarantee.statement).toMatch(/The domain of “diagnosis” \(m = 4\) is declared in the job \(the first column of a hierarchy file\)/);
    const job = JSON.parse(readFileSync(join(r.out, 'job.json'), 'utf8')) as { method: { domains: unknown } };
    expect(job.method.domains).toEqual({ diagnosis: { hierarchy: 'hierarchy.csv' } });
    // A missing file is an input problem, named.
    const missing = run(dir, 'nofile', input, { ...RP, domains: { diagnosis: { hierarchy: 'nothing.csv' } } });
    expect(missing.code).toBe(3);
    expect(JSON.parse(missing.stdout).error.message).toMatch(/nothing\.csv/);
  }, 60_000);

  it('the value labels of an SPSS or Stata file are a declared domain (declared-missing codes left out); a file without them is a job error', () => {
    for (const path of ['test/fixtures/spss/people.zsav', 'test/fixtures/stata/people-118.dta']) {
      const imported = readTable(resolve(path), { missing: [''], onBadRow: 'error' });
      const domain = resolveDomain('occupation', 'value-labels', { imported, baseDir: tmpdir() });
      expect(domain).toEqual({ source: 'value-labels', values: ['Managers', 'Professionals', 'Adm-clerical'] });
    }
    const dir = mkdtempSync(join(tmpdir(), 'custos-domain-'));
    const csv = readTable(dataset(dir, false), { missing: [''], onBadRow: 'error' });
    expect(() => resolveDomain('diagnosis', 'value-labels', { imported: csv, baseDir: dir })).toThrow(JobError);
    expect(() => resolveDomain('diagnosis', 'value-labels', { imported: csv, baseDir: dir })).toThrow(/method\.domains\.diagnosis: "value-labels" takes the value labels of an SPSS or Stata file; this input \(csv\) has none/);
    // A whole run: the labelled column, its missing records left out; the guarantee names where the domain comes from.
    const r = run(dir, 'labels', resolve('test/fixtures/spss/people.zsav'), { ...UP, domains: { occupation: 'value-labels' } }, { missingSensitive: 'exclude' }, 'occupation');
    expect(r.code, r.stderr).toBe(0);
    expect(r.published().guarantee.statement).toMatch(/The domain of “occupation” \(m = 3\) is declared in the job \(the input's value labels\)/);
  }, 60_000);
});

describe('the job schema of domains', () => {
  const base = { version: 1, input: { path: 'data.csv' }, attributes: { diagnosis: 'sensitive' } };
  const domainsOf = (domain: unknown) => ({ ...base, method: { ...UP, domains: { diagnosis: domain } } });
  it('takes a list, a hierarchy file, the value labels or "from-data"', () => {
    for (const domain of [['a', 'b'], { hierarchy: 'h.csv' }, 'value-labels', 'from-data']) {
      const { job } = parseJob(domainsOf(domain), '/tmp');
      expect(job.method.type === 'uniform-perturbation' && job.method.domains?.['diagnosis']).toEqual(domain);
    }
  });
  it('refuses anything else, naming the key and the forms', () => {
    const message = (domain: unknown): string => {
      try {
        parseJob(domainsOf(domain), '/tmp');
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(message(['a'])).toMatch(/method\.domains\.diagnosis: a declared domain needs at least 2 values/);
    for (const domain of ['data', { hierarchy: '' }, { file: 'h.csv' }, 3]) {
      expect(message(domain)).toMatch(/method\.domains\.diagnosis(\.hierarchy)?: .*(a list of at least 2 values|name the hierarchy file)/);
    }
    expect(message('data')).toMatch(/"value-labels".*"from-data"/);
  });
});

describe('custos init proposes the declared form', () => {
  const columns = [
    { name: 'age', type: 'integer', distinct: 3, missing: 0, top: [] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [] },
  ];
  const input = { path: '/data/people.sav', missing: [''], rows: 100, columns, values: new Map([['diagnosis', ['asthma', 'cold', 'flu']]]) };
  const domainOf = (skeleton: Record<string, unknown>): unknown => (skeleton['method'] as { domains?: Record<string, unknown> }).domains?.['diagnosis'];
  it('the value labels when they cover every value, else the values written out for review, else "from-data"', () => {
    expect(domainOf(jobSkeleton({ ...input, labelSets: new Map([['diagnosis', ['flu', 'cold', 'asthma', 'measles']]]) }, 'uniform-perturbation'))).toBe('value-labels');
    // Labels that miss a value the data hold cannot be the domain (the run would refuse those records).
    const partial = jobSkeleton({ ...input, labelSets: new Map([['diagnosis', ['flu', 'cold']]]) }, 'reconstruction-privacy');
    expect(domainOf(partial)).toEqual(['asthma', 'cold', 'flu']);
    expect((partial['method'] as { _help: string })._help).toMatch(/REVIEW method\.domains: the values of diagnosis were copied from the confidential file/);
    expect(domainOf(jobSkeleton({ ...input, values: new Map() }, 'uniform-perturbation'))).toBe('from-data');
    // β-privacy's sensitive column too.
    expect(domainOf(jobSkeleton(input, 'beta-privacy'))).toEqual(['asthma', 'cold', 'flu']);
  });
});
