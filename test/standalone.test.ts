import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCEPT_REVIEW } from './accept-review.js';

// The single-file command line (npm run build:standalone) must run with nothing but itself: a
// folder holding only the executable and the data, and a PATH with no Node on it.
const BUILT = resolve('dist/standalone', process.platform === 'win32' ? 'custos.exe' : 'custos');
let dir = '';
let exe = '';

function custos(args: readonly string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(exe, args, { cwd: dir, encoding: 'utf8', env: { PATH: join(dir, 'no-node-here'), HOME: dir } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('standalone executable', () => {
  beforeAll(() => {
    execFileSync(process.execPath, ['scripts/build-standalone.mjs', '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
    dir = mkdtempSync(join(tmpdir(), 'custos-standalone-'));
    exe = join(dir, 'custos');
    copyFileSync(BUILT, exe);
    copyFileSync('resources/adult/adult.csv', join(dir, 'adult.csv'));
    copyFileSync('test/fixtures/spss/people-plain.sav', join(dir, 'people.sav'));
    copyFileSync('test/fixtures/parquet/types-zstd.parquet', join(dir, 'types.parquet'));
    copyFileSync('test/fixtures/sas/sas7bdat/people-32-rdc.sas7bdat', join(dir, 'people.sas7bdat'));
    const demo = JSON.parse(readFileSync('resources/demo/adult-job.json', 'utf8')) as { input: { path: string } };
    demo.input.path = 'adult.csv';
    writeFileSync(join(dir, 'job.json'), JSON.stringify(demo));
  }, 180_000);

  it('knows its version without package.json', () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const r = custos(['--version']);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`custos ${version}`);
  });

  it('runs the demo job from an empty folder, helper thread, workbook and PDF included, and the release verifies', () => {
    const run = custos(['run', 'job.json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readdirSync(join(dir, 'release')).sort()).toEqual(['job.json', 'manifest.json', 'release.csv', 'release.xlsx', 'report.html', 'report.json', 'report.pdf']);
    expect(readFileSync(join(dir, 'release', 'report.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The embedded DejaVu faces, read from the executable's assets, are in the PDF.
    expect(readFileSync(join(dir, 'release', 'report.pdf')).toString('latin1')).toContain('DejaVuSans');
    expect(readFileSync(join(dir, 'release', 'release.xlsx')).subarray(0, 2).toString('latin1')).toBe('PK');
    const report = JSON.parse(readFileSync(join(dir, 'release', 'report.json'), 'utf8')) as { guarantee: { holds: boolean } };
    expect(report.guarantee.holds).toBe(true);
    const verify = custos(['verify', 'release', '--original', 'adult.csv']);
    expect(verify.stdout).toMatch(/verified: every check holds/);
    expect(verify.code).toBe(0);
  }, 120_000);

  it('assesses, inspects a statistical file and refuses bad input with the usual exit codes', () => {
    const assess = custos(['assess', 'job.json', '--json']);
    expect(assess.code).toBe(0);
    expect((JSON.parse(assess.stdout) as { kind: string }).kind).toBe('assessment');
    const inspect = custos(['inspect', 'people.sav', '--json']);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toMatch(/"format": "sav"/);
    // Every reader the bundle must carry: Parquet (hyparquet, zstd), SAS data sets (RDC).
    for (const file of ['types.parquet', 'people.sas7bdat']) {
      const r = custos(['inspect', file, '--json']);
      expect(r.stderr, file).toBe('');
      expect(r.code, file).toBe(0);
    }
    expect(custos(['inspect', 'missing.csv']).code).toBe(3);
    expect(custos(['run', 'adult.csv']).code).toBe(2);
  }, 120_000);

  it('writes a release as Parquet, SPSS and Stata files beside the CSV, and verifies it', () => {
    const job = {
      version: 1,
      input: { path: 'people.sav', missingSensitive: 'exclude' },
      attributes: { id: 'identifier', occupation: 'sensitive', note: 'identifier' },
      method: { type: 'uniform-perturbation', retention: 0.6, domains: { occupation: 'from-data' } },
      output: { dir: 'formats', formats: ['csv', 'parquet', 'sav', 'dta'], report: ['json'] },
      // A test of the writers: the people file's quasi-identifiers are published as collected.
      review: ACCEPT_REVIEW,
    };
    writeFileSync(join(dir, 'formats-job.json'), JSON.stringify(job));
    const run = custos(['run', 'formats-job.json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readdirSync(join(dir, 'formats')).sort()).toEqual(['job.json', 'manifest.json', 'release.csv', 'release.dta', 'release.parquet', 'release.sav', 'report.json']);
    const verify = custos(['verify', 'formats']);
    expect(verify.stdout).toMatch(/release\.sav agrees with the CSV/);
    expect(verify.code, verify.stdout).toBe(0);
    const inspect = custos(['inspect', join('formats', 'release.parquet'), '--json']);
    expect(inspect.code).toBe(0);
  }, 120_000);
});
