import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Table } from '../../engine/table.js';
import { readTable } from '../../io/input/read-table.js';
import { REPORT_SCHEMA, type Report } from '../../io/report/report-model.js';
import { parseJob } from '../load-job.js';
import type { Job } from '../job-schema.js';
import { verifyBetaPrivacy } from './verify-beta.js';
import { verifyRandomized } from './verify-randomized.js';
import { verifyClasses } from './verify-classes.js';
import { CheckList, type VerifyResult } from './checks.js';

export interface VerifyOptions {
  /** The confidential input, for the checks that need it. */
  readonly original?: string;
  /** Accept releases made with seeded test randomness (for tests of verify itself). */
  readonly acceptTestRandomness?: boolean;
}

export interface VerifyContext {
  readonly dir: string;
  readonly report: Report;
  readonly job: Job;
  readonly original?: Table;
  readonly checks: CheckList;
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * Re-checks a release folder without trusting the tool's word: every checksum,
 * the job, record counts, and the method's guarantee from the released files
 * (and from the original file where the guarantee is about it).
 */
export function verifyRelease(dir: string, options: VerifyOptions = {}): VerifyResult {
  const checks = new CheckList();
  const reportPath = join(dir, 'report.json');
  if (!existsSync(reportPath)) {
    checks.add('report.json', false, `${dir} has no report.json: it is not a Custos release`);
    return { ok: false, dir, checks: checks.checks };
  }
  let report: Report;
  try {
    report = JSON.parse(readFileSync(reportPath, 'utf8')) as Report;
  } catch (error) {
    checks.add('report.json', false, `not valid JSON: ${(error as Error).message}`);
    return { ok: false, dir, checks: checks.checks };
  }
  checks.add('report schema', report.schema === REPORT_SCHEMA && report.kind === 'release', `${String(report.schema)} (${String(report.kind)})`);
  checks.add(
    'randomness',
    !report.testRandomness || options.acceptTestRandomness === true,
    report.testRandomness ? 'made with seeded TEST randomness: not a protected release' : 'operating-system CSPRNG',
  );
  const files = report.output?.files ?? [];
  for (const file of files) {
    checks.run(`checksum ${file.name}`, () => {
      const path = join(dir, file.name);
      if (!existsSync(path)) return { ok: false, detail: 'listed in report.json but missing' };
      const actual = sha256(path);
      return actual === file.sha256 ? `sha256 ${actual.slice(0, 16)}… matches` : { ok: false, detail: `sha256 is ${actual}, report.json says ${file.sha256}: the file was changed` };
    });
  }
  const listed = new Set([...files.map((f) => f.name), 'report.json']);
  const extra = readdirSync(dir).filter((name) => !listed.has(name));
  checks.add('no unlisted files', extra.length === 0, extra.length === 0 ? 'every file is listed with its checksum' : `not listed in report.json: ${extra.join(', ')}`);
  let job: Job | undefined;
  checks.run('job.json', () => {
    const text = JSON.parse(readFileSync(join(dir, 'job.json'), 'utf8')) as unknown;
    job = parseJob(text, dir).job;
    return isDeepStrictEqual(text, report.job) ? 'valid, and identical to the job embedded in the report' : { ok: false, detail: 'differs from the job embedded in report.json' };
  });
  let original: Table | undefined;
  if (options.original) {
    checks.run('original file', () => {
      const imported = readTable(options.original!, {
        ...(job?.input.delimiter ? { delimiter: job.input.delimiter } : {}),
        ...(job?.input.encoding ? { encoding: job.input.encoding } : {}),
        sheet: job?.input.sheet ?? null,
        missing: job?.input.missing ?? [''],
        onBadRow: job?.input.onBadRow ?? 'error',
      });
      original = imported.table;
      return imported.sha256 === report.input.sha256
        ? `sha256 matches the report's input (${imported.table.rowCount} records)`
        : { ok: false, detail: `sha256 ${imported.sha256} is not the report's input ${report.input.sha256}` };
    });
  }
  if (job) {
    const context: VerifyContext = { dir, report, job, checks, ...(original ? { original } : {}) };
    const method = job.method;
    checks.run('guarantee checks', () => {
      if (method.type === 'beta-privacy') verifyBetaPrivacy(context, method);
      else if (method.type === 'safe-k-anonymity' || method.type === 'partitioned-recoding') verifyClasses(context, method);
      else if (method.type === 'dp-counts') return 'dp-counts: answers are noisy by design; checksums and the job are what can be verified';
      else verifyRandomized(context, method);
      return `${method.type}: checked from the released files${original ? ' and the original' : ''}`;
    });
  }
  return { ok: checks.checks.every((c) => c.ok), dir, method: report.method?.type, checks: checks.checks };
}
