import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { JobError } from '../method-kit/job-error.js';
import { loadJobFile, parseJob, type LoadedJob } from '../load-job.js';
import type { CandidateJob, CandidateSource } from './compare-request.js';

/** One axis of a grid: a key of the job's method object and the values it takes. */
export interface GridAxis {
  /** As written: "retention", or a path into the method object such as "target.epsilon". */
  readonly key: string;
  readonly values: readonly unknown[];
  /** The values as written, for labels. */
  readonly written: readonly string[];
}

export interface Candidate {
  readonly label: string;
  readonly jobPath: string;
  readonly grid: readonly { readonly key: string; readonly value: string }[];
  readonly loaded: LoadedJob;
}

/**
 * `key=v1,v2,…`: each value as JSON where it reads as JSON (numbers, true,
 * false, "quoted"), otherwise as the text itself ("auto", "search").
 */
export function parseGridAxis(text: string): GridAxis {
  const at = text.indexOf('=');
  if (at <= 0 || at === text.length - 1) throw new JobError(`--grid ${JSON.stringify(text)}: write KEY=VALUE,VALUE,… (a key of the job's method object)`, '--grid');
  const key = text.slice(0, at).trim();
  const written = text.slice(at + 1).split(',').map((v) => v.trim());
  if (written.some((v) => v === '')) throw new JobError(`--grid ${key}: an empty value`, `method.${key}`);
  const values = written.map((v) => {
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  });
  return { key, values, written };
}

/** Every combination of the axes' values, the first axis varying slowest. */
function combinations(axes: readonly GridAxis[]): { key: string; value: unknown; written: string }[][] {
  let out: { key: string; value: unknown; written: string }[][] = [[]];
  for (const axis of axes) out = out.flatMap((prefix) => axis.values.map((value, i) => [...prefix, { key: axis.key, value, written: axis.written[i]! }]));
  return out;
}

/**
 * Sets a value at a dotted path of the method object. Own properties are
 * defined, never assigned: a key such as "__proto__" must become a key the job
 * schema then refuses by name, not a change of prototype.
 */
function setAt(method: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let target = method;
  for (const part of parts.slice(0, -1)) {
    const next = Object.hasOwn(target, part) ? target[part] : undefined;
    const child: Record<string, unknown> = typeof next === 'object' && next !== null && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {};
    Object.defineProperty(target, part, { value: child, enumerable: true, writable: true, configurable: true });
    target = child;
  }
  Object.defineProperty(target, parts[parts.length - 1]!, { value, enumerable: true, writable: true, configurable: true });
}

/** A job problem said with the candidate it belongs to, keeping the key it names. */
function forCandidate(label: string, error: unknown): never {
  if (!(error instanceof JobError)) throw error;
  // The key stays first, as every job error starts with it.
  const said = (text: string): string => {
    const key = error.key && text.startsWith(`${error.key}: `) ? error.key : undefined;
    return key ? `${key}: candidate ${label}: ${text.slice(key.length + 2)}` : `candidate ${label}: ${text}`;
  };
  throw new JobError(said(error.message), error.key, error.issues.map(said));
}

/**
 * The candidates of a comparison: each job file as written, or, with a grid,
 * one candidate per combination of the grid's values set into the one job's
 * method object. Every candidate is parsed as `run` parses a job; a problem
 * names the candidate and the key.
 */
export function loadCandidates(jobPaths: readonly string[], axes: readonly GridAxis[]): Candidate[] {
  if (axes.length > 0 && jobPaths.length !== 1) throw new JobError('--grid varies one job: give exactly one JOB.json with it', '--grid');
  const names = jobPaths.map((p) => basename(p));
  const unique = new Set(names).size === names.length;
  const candidates: Candidate[] = [];
  jobPaths.forEach((jobPath, i) => {
    const name = unique ? names[i]! : jobPath;
    let loaded: LoadedJob;
    try {
      loaded = loadJobFile(jobPath);
    } catch (error) {
      forCandidate(name, error);
    }
    if (axes.length === 0) {
      candidates.push({ label: name, jobPath: resolve(jobPath), grid: [], loaded });
      return;
    }
    const raw = JSON.parse(readFileSync(jobPath, 'utf8')) as Record<string, unknown>;
    for (const combination of combinations(axes)) {
      const label = `${name} ${combination.map((c) => `${c.key}=${c.written}`).join(' ')}`;
      const job = structuredClone(raw);
      const method = typeof job['method'] === 'object' && job['method'] !== null ? (job['method'] as Record<string, unknown>) : {};
      for (const c of combination) setAt(method, c.key, c.value);
      job['method'] = method;
      try {
        candidates.push({ label, jobPath: resolve(jobPath), grid: combination.map((c) => ({ key: c.key, value: c.written })), loaded: parseJob(job, dirname(resolve(jobPath)), resolve(jobPath)) });
      } catch (error) {
        forCandidate(label, error);
      }
    }
  });
  if (candidates.length < 1) throw new JobError('compare needs at least one JOB.json');
  return candidates;
}

/** Stands in for a job file's path where a candidate came from the app, not from a file. */
export const FROM_THE_APP = '(built in the app)';

/** The app's candidates: each job object parsed as `run` parses one; a problem names the candidate and the key. */
export function candidatesOfJobs(jobs: readonly CandidateJob[], baseDir: string): Candidate[] {
  if (jobs.length < 1) throw new JobError('compare needs at least one candidate');
  return jobs.map((c) => {
    try {
      return { label: c.label, jobPath: FROM_THE_APP, grid: c.grid, loaded: parseJob(c.job, baseDir) };
    } catch (error) {
      forCandidate(c.label, error);
    }
  });
}

/** The candidates of a request, from files and grids or from the app's job objects. */
export function candidatesOf(source: CandidateSource): Candidate[] {
  return 'jobPaths' in source ? loadCandidates(source.jobPaths, source.grid.map(parseGridAxis)) : candidatesOfJobs(source.jobs, source.baseDir);
}
