/**
 * Issue 32, the smaller findings: a recoding that deletes every record, a release that is the input
 * itself, problems of a job listed once, an unnamed Parquet column named by its position.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { hostileWorkbook } from './io/hostile-workbook.js';
import { ACCEPT_REVIEW } from './accept-review.js';

const CLI = resolve('dist/cli/custos.mjs');

/** Without CUSTOS_TEST_RANDOMNESS: the release must be exactly what a custodian's run writes. */
function custos(args: string[], cwd: string): { code: number; stdout: string; stderr: string } {
  const env = { ...process.env };
  delete env.CUSTOS_TEST_RANDOMNESS;
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd, env, timeout: 30_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Four records in two classes of two, with hierarchies for both quasi-identifiers. */
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'custos-round3-'));
  made.push(dir);
  writeFileSync(join(dir, 'data.csv'), 'id;sex;age\n1;m;30\n2;f;31\n3;m;30\n4;f;31\n');
  writeFileSync(join(dir, 'age.csv'), '30;30-31;*\n31;30-31;*\n');
  writeFileSync(join(dir, 'sex.csv'), 'm;*\nf;*\n');
  return dir;
}

function recodingJob(dir: string, k: number, suppressionLimit: number): void {
  const job = {
    version: 1,
    input: { path: 'data.csv' },
    attributes: { id: 'insensitive', sex: 'quasi', age: 'quasi' },
    method: { type: 'global-recoding', hierarchies: { sex: 'sex.csv', age: 'age.csv' }, models: [{ type: 'k-anonymity', k }], suppressionLimit },
    output: { dir: 'release', formats: ['csv'], report: ['json'], delimiter: ';' },
    review: ACCEPT_REVIEW,
  };
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
}

describe('a recoding that would release no records', () => {
  it('k above the records with a suppression limit of 100 % is refused (exit 2, naming the key); nothing is written', () => {
    const dir = folder();
    recodingJob(dir, 10, 1);
    const r = custos(['run', 'job.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^custos: method\.models: the release would hold no records: all 4 records of the input were deleted/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dir, 'release'))).toBe(false);
    expect(existsSync(join(dir, 'release-internal'))).toBe(false);
  });
});

describe('a release that is the input itself', () => {
  it('is warned of loudly on the command line and in the internal report; a release that changes something is not', () => {
    const dir = folder();
    // The data is already 2-anonymous at level 0: nothing is generalized or deleted.
    recodingJob(dir, 2, 0);
    const same = custos(['run', 'job.json'], dir);
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/warning: NOTHING WAS CHANGED: the release holds every record of the input as it is/);
    const internal = JSON.parse(readFileSync(join(dir, 'release-internal', 'internal-report.json'), 'utf8')) as { warnings: string[] };
    expect(internal.warnings[0]).toMatch(/^NOTHING WAS CHANGED/);
    // k = 4: age or sex is generalized, so the release differs.
    rmSync(join(dir, 'release'), { recursive: true });
    rmSync(join(dir, 'release-internal'), { recursive: true });
    recodingJob(dir, 4, 0);
    const changed = custos(['run', 'job.json'], dir);
    expect(changed.code).toBe(0);
    expect(changed.stdout).not.toMatch(/NOTHING WAS CHANGED/);
  });
});

describe('problems of a job', () => {
  it('are each printed once', () => {
    const dir = folder();
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'data.csv' }, attributes: { sex: 'sensitive' }, method: { type: 'uniform-perturbation', epsilon: -1 } }));
    const r = custos(['run', 'job.json'], dir);
    expect(r.code).toBe(2);
    expect(r.stderr.match(/epsilon must be > 0/g)).toHaveLength(1);
    expect(r.stderr.match(/give retention, or rho1 and rho2/g)).toHaveLength(1);
    expect(r.stderr).toMatch(/^custos: the job has 2 problems:\n {2}- method\.epsilon: epsilon must be > 0\n {2}- method\.retention: /);
  });
});

describe('a Parquet column without a name', () => {
  it('is refused naming the file and its position (1-based, of how many, after which column)', () => {
    const dir = folder();
    const bytes = parquetWriteBuffer({
      columnData: [
        { name: 'age', data: [30, 31], type: 'INT32' },
        { name: '', data: [1, 2], type: 'INT32' },
        { name: 'sex', data: ['m', 'f'], type: 'STRING' },
      ],
    });
    writeFileSync(join(dir, 'unnamed.parquet'), new Uint8Array(bytes));
    const r = custos(['inspect', 'unnamed.parquet'], dir);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/unnamed\.parquet: column 2 \(of 3, after "age"\) has no name in the Parquet schema/);
  });
});

describe('a workbook whose shared-string index is out of range, negative or not a number', () => {
  it('exits 3 naming the file and the cell in inspect, init, assess and run; no stack trace', () => {
    const dir = folder();
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ version: 1, input: { path: 'book.xlsx' }, attributes: { town: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { town: 'from-data' } } }));
    for (const index of ['99', '-1', '__proto__']) {
      writeFileSync(join(dir, 'book.xlsx'), hostileWorkbook(index));
      const commands = index === '99' ? [['inspect', 'book.xlsx'], ['init', 'book.xlsx'], ['assess', 'job.json'], ['run', 'job.json']] : [['inspect', 'book.xlsx']];
      for (const args of commands) {
        const r = custos(args, dir);
        expect(r.code, `${args[0]} ${index}`).toBe(3);
        expect(r.stderr).toMatch(/book\.xlsx: cell Sheet1!B7 /);
        expect(r.stderr).not.toMatch(/TypeError|\n\s+at /);
      }
    }
    expect(existsSync(join(dir, 'release'))).toBe(false);
  }, 120_000);
});
