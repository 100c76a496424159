/**
 * What the published files say (issue 30): only released columns are named, and every statement
 * says what its theorem gives, no more. Each case runs the command line on a small file made here.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/common/report/report-model.js';
import type { Table } from '../src/common/table/table.js';
import { identifierCheck } from '../src/jobs/method-kit/verify-classes.js';

const CLI = resolve('dist/cli/custos.mjs');
const require = createRequire(import.meta.url);
const XLSX = require('xlsx') as typeof import('xlsx');

function custos(args: string[]): { code: number; stdout: string; stderr: string } {
  // Test randomness, seeded: the same release every time. Nothing else from the environment.
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, CUSTOS_TEST_RANDOMNESS: '1' } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Every file of a folder as text; a workbook as the XML of its parts, inflated. */
function folderTexts(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    const bytes = readFileSync(join(dir, name));
    if (name.endsWith('.xlsx')) {
      const zip = XLSX.CFB.read(bytes, { type: 'buffer' });
      const entries = zip.FileIndex as readonly { type: number; content?: ArrayLike<number> }[];
      out.set(name, entries.filter((e) => e.type === 2 && e.content).map((e) => Buffer.from(e.content as Uint8Array).toString('utf8')).join('\n'));
    } else out.set(name, bytes.toString('utf8'));
  }
  return out;
}

const IDENTIFIER = 'patient_register_no';

/** 60 records: an identifier, two quasi-identifiers (6 classes of 10), a sensitive column. */
function writeInput(dir: string): string {
  const path = join(dir, 'people.csv');
  const rows = Array.from({ length: 60 }, (_, i) => `R-${1000 + i},${i % 2 ? 'F' : 'M'},${'ABC'[i % 3]},${['flu', 'cold', 'asthma', 'gout'][i % 4]}`);
  writeFileSync(path, [`${IDENTIFIER},sex,region,diagnosis`, ...rows].join('\n') + '\n');
  return path;
}

function run(method: Record<string, unknown>, attributes: Record<string, string>): { dir: string; release: string; internal: string } {
  const dir = mkdtempSync(join(tmpdir(), 'custos-statements-'));
  const input = writeInput(dir);
  const job = { version: 1, input: { path: input }, attributes, method, output: { dir: 'out', formats: ['csv', 'xlsx'], report: ['html', 'json'] } };
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  const r = custos(['run', join(dir, 'job.json'), '--test-seed', '3']);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return { dir, release: join(dir, 'out'), internal: join(dir, 'out-internal') };
}

describe('the published job and report name released columns only (issue 30, item 5)', () => {
  const cases: [string, Record<string, unknown>, Record<string, string>][] = [
    ['global recoding', { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 2 }] }, { [IDENTIFIER]: 'identifier', sex: 'quasi', region: 'quasi', diagnosis: 'sensitive' }],
    ['uniform perturbation', { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, { [IDENTIFIER]: 'identifier', sex: 'quasi', region: 'quasi', diagnosis: 'sensitive' }],
  ];
  for (const [name, method, attributes] of cases) {
    it(`${name}: no file of the release names the identifier column; the internal folder does; verify passes`, () => {
      const { release, internal } = run(method, attributes);
      for (const [file, text] of folderTexts(release)) expect(text.includes(IDENTIFIER), `${file} names the identifier column`).toBe(false);
      const publishedJob = JSON.parse(readFileSync(join(release, 'job.json'), 'utf8'));
      expect(Object.keys(publishedJob.attributes).sort()).toEqual(['diagnosis', 'region', 'sex']);
      const report = JSON.parse(readFileSync(join(release, 'report.json'), 'utf8'));
      expect(report.input.columns.map((c: { name: string }) => c.name)).toEqual(['sex', 'region', 'diagnosis']);
      // The workbook's Parameters sheet embeds the published job.
      const book = XLSX.read(readFileSync(join(release, 'release.xlsx')));
      const parameters = XLSX.utils.sheet_to_json<string[]>(book.Sheets['Parameters']!, { header: 1 });
      const embedded = parameters.find((row) => row[0] === 'Job (JSON)')?.[1];
      expect(JSON.parse(embedded!)).toEqual(publishedJob);
      // The internal folder keeps the job that reproduces the run, and the identifier's role.
      const internalJob = JSON.parse(readFileSync(join(internal, 'job.json'), 'utf8'));
      expect(internalJob.attributes[IDENTIFIER]).toBe('identifier');
      const internalReport = JSON.parse(readFileSync(join(internal, 'internal-report.json'), 'utf8'));
      expect(internalReport.input.columns.find((c: { name: string }) => c.name === IDENTIFIER)?.role).toBe('identifier');
      const verified = custos(['verify', release, '--accept-test-randomness']);
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
      expect(verified.stdout).toMatch(/ok +.*no identifier (is )?released/);
    });
  }
});

describe('verify: a released column the published report does not list fails the identifier check', () => {
  const columns = (names: string[]) => ({ columns: names.map((name) => ({ name })) }) as unknown as Table;
  const report = { input: { columns: [{ name: 'sex', role: 'quasi' }, { name: 'region', role: 'quasi' }] } } as unknown as Report;
  it('passes the listed columns, fails an unlisted one and one the internal report marks as an identifier', () => {
    expect(identifierCheck({ report }, columns(['sex', 'region']), [])[1]).toBe(true);
    const unlisted = identifierCheck({ report }, columns(['sex', 'region', IDENTIFIER]), []);
    expect(unlisted[1]).toBe(false);
    expect(unlisted[2]).toContain(IDENTIFIER);
    // A column the method adds itself (partitioned recoding's part) is listed by the caller.
    expect(identifierCheck({ report }, columns(['sex', 'region', 'part']), ['part'])[1]).toBe(true);
    const internal = { input: { columns: [{ name: 'sex', role: 'identifier' }, { name: 'region', role: 'quasi' }] } } as unknown as Report;
    expect(identifierCheck({ report, internal }, columns(['sex', 'region']), [])[1]).toBe(false);
  });
});

/** The internal report of an assessment (nothing written). */
function assess(method: Record<string, unknown>, attributes: Record<string, string>): Report {
  const dir = mkdtempSync(join(tmpdir(), 'custos-statements-'));
  const job = { version: 1, input: { path: writeInput(dir) }, attributes, method, output: { dir: 'out' } };
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  const r = custos(['assess', join(dir, 'job.json'), '--json', '--test-seed', '5']);
  expect(r.code, r.stderr + r.stdout).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

describe('partitioned recoding says what the parts give the union (issue 30, item 4)', () => {
  const attributes = { [IDENTIFIER]: 'identifier', sex: 'quasi', region: 'quasi', diagnosis: 'sensitive' };
  it('60 records in 7 parts: sizes that differ by at most one, not "equal"; the union sentence for k-anonymity and distinct ℓ-diversity', () => {
    for (const model of [{ type: 'k-anonymity', k: 2 }, { type: 'l-diversity', l: 2 }]) {
      const { statement } = assess({ type: 'partitioned-recoding', parts: 7, model }, attributes).guarantee;
      expect(statement).toMatch(/split at random into 7 disjoint parts whose sizes differ by at most one/);
      expect(statement).not.toMatch(/equal size/);
      expect(statement).toMatch(/the union keeps the property/);
    }
  });

  it('t-closeness: the guarantee per part, and no claim that the union keeps it', () => {
    const { statement, name } = assess({ type: 'partitioned-recoding', parts: 3, model: { type: 't-closeness', t: 0.9 } }, attributes).guarantee;
    expect(name).toBe('0.9-closeness (equal-distance EMD) in every part');
    expect(statement).not.toMatch(/union keeps/);
    expect(statement).toMatch(/The guarantee is per part: every released class is within 0\.9 of its own part's distribution of the sensitive value; the union of the parts is not claimed to be 0\.9-close/);
  });
});
