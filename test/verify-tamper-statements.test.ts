/**
 * The tamper suite of issue 31 (see verify-tamper.test.ts), for the published sentences: an insider
 * edits report.json's guarantee statement or summary, renders report.html and report.pdf again from
 * the edited report as Custos would, and re-hashes report.json and the manifest. Every file then
 * agrees with every other; only verify's writing of the mechanism's sentences again (statement.ts)
 * from the published parameters and figures can tell. Untampered releases of every method pass.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../src/common/report/report-model.js';
import { reportHtml, reportPdf } from '../src/jobs/report-renderings.js';
import { rehashRelease } from './insider-rehash.js';

const CLI = resolve('dist/cli/custos.mjs');

interface Check {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  readonly notChecked?: true;
}

function custos(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function verify(dir: string): { code: number; checks: Check[] } {
  const r = custos(['verify', dir, '--json', '--accept-test-randomness'], dir);
  expect(r.stderr).toBe('');
  return { code: r.code, checks: (JSON.parse(r.stdout) as { checks: Check[] }).checks };
}

const INPUT = [
  'region,sex,age,occupation,diagnosis,income',
  ...Array.from({ length: 240 }, (_, i) => [`r${i % 4}`, i % 3 ? 'F' : 'M', 18 + ((i * 7) % 60), 'abcdef'[(i * 5) % 6], ['flu', 'cold', 'asthma', 'gout'][(i * 3 + Math.floor(i / 7)) % 4], 1000 + ((i * 37) % 900)].join(',')),
].join('\n');

const roles = (extra: Record<string, string>): Record<string, string> => ({ region: 'quasi', sex: 'quasi', age: 'insensitive', occupation: 'insensitive', diagnosis: 'insensitive', income: 'insensitive', ...extra });
const dropped = { age: 'identifier', occupation: 'identifier', diagnosis: 'identifier', income: 'identifier' };
const age = { age: { type: 'interval', widths: [10, 20] } };

/** One job of each method (two of uniform perturbation: retention, and ρ1–ρ2 with a declared domain; two of dp-counts: exact and correlated noise). */
const JOBS: Record<string, { attributes: Record<string, string>; method: Record<string, unknown> }> = {
  'uniform-perturbation': { attributes: roles({ occupation: 'sensitive' }), method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: ['a', 'b', 'c', 'd', 'e', 'f'] } } },
  'uniform-perturbation-rho': { attributes: roles({ occupation: 'sensitive', diagnosis: 'sensitive' }), method: { type: 'uniform-perturbation', rho1: 0.2, rho2: 0.6, domains: { occupation: ['a', 'b', 'c', 'd', 'e', 'f', 'g'], diagnosis: 'from-data' } } },
  'reconstruction-privacy': { attributes: roles({ diagnosis: 'sensitive', occupation: 'sensitive' }), method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data', occupation: 'from-data' } } },
  'beta-privacy': { attributes: roles({ occupation: 'sensitive' }), method: { type: 'beta-privacy', beta: { default: '1/4' }, maxBucket: 50, fakeValues: 1, domains: { occupation: ['a', 'b', 'c', 'd', 'e', 'f'] } } },
  'dp-counts': { attributes: roles({}), method: { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['region', 'sex'], domains: { region: ['r0', 'r1', 'r2', 'r3'], sex: 'from-data' } } },
  'dp-counts-correlated': { attributes: roles({}), method: { type: 'dp-counts', epsilon: 1, queries: 'marginals', columns: ['region', 'sex'], noise: 'generalized-laplace', correlation: { model: 'ar1', rho: 0.5 }, domains: { region: ['r0', 'r1', 'r2', 'r3'], sex: ['F', 'M'] } } },
  'safe-k-anonymity': { attributes: roles(dropped), method: { type: 'safe-k-anonymity', k: 5, sampling: 0.5, epsilon: 1 } },
  'partitioned-recoding': { attributes: roles({ age: 'quasi', diagnosis: 'sensitive' }), method: { type: 'partitioned-recoding', parts: 2, model: { type: 'k-anonymity', k: 2 }, hierarchies: { age: { type: 'interval', widths: [10, 20, 60] } } } },
  'global-recoding': { attributes: roles({ age: 'quasi' }), method: { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 3 }], hierarchies: age, suppressionLimit: 0.1 } },
  microaggregation: { attributes: roles({}), method: { type: 'microaggregation', columns: ['age', 'income'], k: 3 } },
};

let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'custos-tamper-statements-'));
  writeFileSync(join(work, 'input.csv'), INPUT);
  for (const [name, job] of Object.entries(JOBS)) {
    const output = { dir: name, formats: ['csv'], report: ['html', 'pdf', 'json'] };
    writeFileSync(join(work, `${name}.json`), JSON.stringify({ version: 1, input: { path: 'input.csv' }, ...job, output }));
    const r = custos(['run', `${name}.json`, '--test-seed', '11'], work);
    expect(r.code, r.stderr + r.stdout).toBe(0);
  }
  // A recoding whose hierarchy the job defines (intervals), released as a CSV alone.
  const recoded = { attributes: roles({ ...dropped, age: 'quasi' }), method: { type: 'safe-k-anonymity', k: 2, sampling: 0.5, epsilon: 1, hierarchies: age, levels: { age: 1 } }, output: { dir: 'recoded-csv', formats: ['csv'], report: ['json'] } };
  writeFileSync(join(work, 'recoded-csv.json'), JSON.stringify({ version: 1, input: { path: 'input.csv' }, ...recoded }));
  const r = custos(['run', 'recoded-csv.json', '--test-seed', '11'], work);
  expect(r.code, r.stderr + r.stdout).toBe(0);
}, 300_000);

let copies = 0;
function copyOf(name: string): string {
  const target = join(work, `copy-${copies++}`);
  cpSync(join(work, name), target, { recursive: true });
  return target;
}

/** The sentences an insider edits (report.json, parsed: nothing is read-only there). */
interface Sentences {
  guarantee: { statement: string };
  summary: string[];
  warnings: string[];
}

/** `text` with `from` replaced by `to`; throws when `from` is not in it (an edit that changes nothing tests nothing). */
function replaced(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the sentence has no "${from}": ${text}`);
  return text.replace(from, to);
}

/** The insider's edit: report.json changed, report.html and report.pdf rendered from it as the run renders them, everything re-hashed. */
function editStatement(dir: string, edit: (report: Sentences) => void): void {
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report;
  edit(report as unknown as Sentences);
  writeFileSync(join(dir, 'report.json'), JSON.stringify(report, null, 2) + '\n');
  // The renderings list the release's files but themselves (as the run draws them, and verify again).
  const forRenderings: Report = { ...report, output: { ...report.output!, files: report.output!.files.filter((f) => f.name !== 'report.html' && f.name !== 'report.pdf') } };
  writeFileSync(join(dir, 'report.html'), reportHtml(forRenderings));
  writeFileSync(join(dir, 'report.pdf'), reportPdf(forRenderings));
  rehashRelease(dir, ['report.html', 'report.pdf']);
}

describe('verify writes the published sentences again (release folder alone)', { timeout: 240_000 }, () => {
  it('the untampered release of every method passes, its sentences checked: every mechanism writes them again', () => {
    for (const name of Object.keys(JOBS)) {
      const v = verify(copyOf(name));
      expect(v.checks.filter((c) => !c.ok), name).toEqual([]);
      expect(v.code, name).toBe(0);
      const sentences = v.checks.find((c) => c.name === 'published sentences');
      expect(sentences?.notChecked, name).toBeUndefined();
      expect(sentences?.detail, name).toMatch(/are the sentences .* writes for the published parameters and figures$/);
    }
  }, 240_000);

  it('names the one figure a sentence depends on that report.json does not state, as not checked', () => {
    const named = (name: string): Check[] => verify(copyOf(name)).checks.filter((c) => c.name.startsWith('published sentences: '));
    // Correlated noise: whether ε_eff is exact or an upper bound. β-privacy's strictest β is the β table's, in report.json: checked.
    expect(named('dp-counts-correlated').map((c) => [c.name, c.notChecked])).toEqual([['published sentences: ε_eff exact or an upper bound', true]]);
    expect(named('beta-privacy')).toEqual([]);
    expect(named('dp-counts')).toEqual([]);
    expect(named('global-recoding')).toEqual([]);
  });

  const edits: [string, string, (report: Sentences) => void, RegExp][] = [
    ['uniform-perturbation', 'the guarantee statement claims differential privacy', (r) => void (r.guarantee.statement = 'The release is ε-differentially private with ε = 0.1.'), /guarantee\.statement/],
    ['uniform-perturbation-rho', 'a summary sentence softened', (r) => void (r.summary = [r.summary[0]!, 'This protects every group as well.']), /summary\[1\]/],
    ['reconstruction-privacy', 'a warning dropped (do not join the release files)', (r) => void (r.warnings = r.warnings.slice(0, -1)), /warnings \(1 sentence\(s\) where 2 are written\)/],
    ['safe-k-anonymity', 'the statement given a smaller ε', (r) => void (r.guarantee.statement = r.guarantee.statement.replace('(ε = 1,', '(ε = 0.1,')), /guarantee\.statement/],
    ['microaggregation', 'a sentence of the confidential input appended to the summary', (r) => void (r.summary = [...r.summary, 'The oldest person in the input is 77.']), /summary \(3 sentence\(s\) where 2 are written\)/],
    ['dp-counts', 'the statement given a smaller ε', (r) => void (r.guarantee.statement = replaced(r.guarantee.statement, 'at most a factor e^1:', 'at most a factor e^0.1:')), /guarantee\.statement/],
    ['dp-counts-correlated', 'the warning that the answers together are not ε-DP dropped', (r) => void (r.warnings = []), /warnings \(0 sentence\(s\) where 1 are written\)/],
    ['beta-privacy', 'the strictest β stated smaller', (r) => void (r.summary = [r.summary[0]!, replaced(r.summary[1]!, 'at 1/4)', 'at 1/10)'), ...r.summary.slice(2)]), /summary\[1\]/],
    ['global-recoding', 'the summary claims differential privacy', (r) => void (r.summary = [r.summary[0]!, 'The release is differentially private.']), /summary\[1\]/],
  ];
  for (const [name, what, edit, field] of edits) {
    it(`${name}: ${what}, the renderings drawn again and re-hashed, fails naming the field`, () => {
      const dir = copyOf(name);
      editStatement(dir, edit);
      const v = verify(dir);
      const failed = v.checks.filter((c) => !c.ok);
      expect(v.code).toBe(1);
      // The insider's renderings agree with the edited report: only the sentences' check fails.
      expect(failed.map((c) => c.name)).toEqual(['published sentences']);
      expect(failed[0]!.detail).toMatch(field);
    });
  }
});

describe('verify checks recoded values against the hierarchy the job defines (a CSV-only release)', { timeout: 120_000 }, () => {
  it('the untampered release passes, its recoded column checked', () => {
    const v = verify(copyOf('recoded-csv'));
    expect(v.checks.filter((c) => !c.ok)).toEqual([]);
    expect(v.checks.find((c) => c.name === 'recoded values of their hierarchies')?.detail).toMatch(/age \(level 1\)/);
  });

  it('each band rewritten to a value outside the hierarchy (its middle age, classes unchanged) fails', () => {
    const dir = copyOf('recoded-csv');
    const csv = readFileSync(join(dir, 'release.csv'), 'utf8');
    expect(csv).toMatch(/,\d+-\d+/);
    writeFileSync(join(dir, 'release.csv'), csv.replace(/(?<=,)(\d+)-\d+(?=,|\r?\n|$)/g, (_band, from: string) => String(Number(from) + 5)));
    rehashRelease(dir, ['release.csv']);
    const v = verify(dir);
    const failed = v.checks.filter((c) => !c.ok);
    expect(v.code).toBe(1);
    expect(failed.map((c) => c.name)).toEqual(['recoded values of their hierarchies']);
    expect(failed[0]!.detail).toMatch(/^age: \d+ value\(s\) not of its hierarchy at level 1/);
  });
});
