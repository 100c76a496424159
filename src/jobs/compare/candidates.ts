import { readFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { SkippedCandidate } from '../../common/compare/comparison.js';
import { InputError } from '../../io/input/input-error.js';
import { definitionOf, MECHANISM_DEFINITIONS } from '../../mechanisms/definitions.js';
import { MAX_CANDIDATES, MAX_CANDIDATES_LIMIT } from '../../common/compare/comparison.js';
import { JobError } from '../../common/job/job-error.js';
import { loadJobFile, parseJob, type LoadedJob } from '../load-job.js';
import type { CandidateJob, CandidateSource } from './compare-request.js';
import { formatCount } from '../../common/format/numbers.js';

/** One axis of a grid: a key of the job's method object and the values it takes. */
export interface GridAxis {
  /** As written: "retention", or a path into the method object such as "target.epsilon". */
  readonly key: string;
  readonly values: readonly unknown[];
  /** The values as written, for labels. */
  readonly written: readonly string[];
}

export interface Candidate {
  /** 1-based, in the order the candidates were given (skipped ones keep their number too). */
  readonly id: number;
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
  // A job's keys that start with "_" are notes, dropped where the job is read: a grid over one would compare the same job under several names.
  if (key.split('.').some((part) => part.startsWith('_'))) throw new JobError(`--grid ${JSON.stringify(key)}: keys that start with "_" are notes Custos ignores in a job, not parameters: name a key of the job's method object`, '--grid');
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

/** A chain of methods is one candidate (src/jobs/chain/compare-chain.ts). */
const CHAINS = { chains: true } as const;

/** The method a job object names, in words, when it names a known one (for a candidate that cannot run); a chain's when each step does. */
function methodNamed(job: unknown): { type: string; title: string } | undefined {
  const method = typeof job === 'object' && job !== null ? (job as { method?: unknown }).method : undefined;
  const steps = (Array.isArray(method) ? method : [method]).map((m: unknown) => MECHANISM_DEFINITIONS.find((d) => d.metadata.type === (typeof m === 'object' && m !== null ? (m as { type?: unknown }).type : undefined)));
  if (steps.length === 0 || steps.some((d) => d === undefined)) return undefined;
  return { type: steps.map((d) => d!.metadata.type).join(','), title: steps.map((d) => d!.metadata.title).join(', then ') };
}

/** Whether an error is the candidate's own (its job, its parameters, a file it names), so the others can go on without it. */
export function isCandidateProblem(error: unknown): error is JobError | InputError {
  return error instanceof JobError || error instanceof InputError;
}

/** A candidate's problem as a skipped candidate: the reason without the key, which is kept apart. */
export function skippedOf(from: { id: number; label: string; jobPath: string; grid: Candidate['grid'] }, error: JobError | InputError, stage: SkippedCandidate['stage'], method?: { type: string; title: string }): SkippedCandidate {
  const key = error instanceof JobError ? error.key : undefined;
  const reason = key && error.message.startsWith(`${key}: `) ? error.message.slice(key.length + 2) : error.message;
  return { id: from.id, label: from.label, job: from.jobPath, grid: from.grid, ...(method ? { method } : {}), stage, reason, ...(key ? { key } : {}) };
}

/** A parsed candidate's method must release records: a method whose release is something else (its `compare` says what) is skipped, named. */
function recordReleaseProblem(loaded: LoadedJob): JobError | undefined {
  const type = loaded.job.method.type;
  const compare = definitionOf(type).compare;
  if (!compare.releasesRecords) return new JobError(`${type} ${compare.why}; compare measures record releases against one pool of count queries`, 'method.type');
  return undefined;
}

/** The candidates that can be compared, and those skipped before any work, each with its reason. */
export interface CandidateList {
  readonly candidates: readonly Candidate[];
  readonly skipped: readonly SkippedCandidate[];
}

/** Parses one candidate; a problem of its own skips it (named, with its reason) rather than the comparison. */
function admit(out: { candidates: Candidate[]; skipped: SkippedCandidate[] }, from: { label: string; jobPath: string; grid: Candidate['grid'] }, written: unknown, load: () => LoadedJob): void {
  const id = out.candidates.length + out.skipped.length + 1;
  try {
    const loaded = load();
    const problem = recordReleaseProblem(loaded);
    if (problem) out.skipped.push(skippedOf({ id, ...from }, problem, 'check', methodNamed(loaded.job)));
    else out.candidates.push({ id, ...from, loaded });
  } catch (error) {
    if (!isCandidateProblem(error)) throw error;
    out.skipped.push(skippedOf({ id, ...from }, error, 'check', methodNamed(written)));
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The candidates of a comparison: each job file as written, or, with a grid,
 * one candidate per combination of the grid's values set into the one job's
 * method object. Every candidate is parsed as `run` parses a job; one that does
 * not parse, or whose method releases no records, is skipped with its reason
 * (the key it names), and the others are compared.
 */
export function loadCandidates(jobPaths: readonly string[], axes: readonly GridAxis[], maxCandidates: number = MAX_CANDIDATES): CandidateList {
  plannedCandidates(jobPaths.length, axes, maxCandidates);
  const names = jobPaths.map((p) => basename(p));
  const unique = new Set(names).size === names.length;
  const out = { candidates: [] as Candidate[], skipped: [] as SkippedCandidate[] };
  jobPaths.forEach((jobPath, i) => {
    const name = unique ? names[i]! : jobPath;
    const from = { label: name, jobPath: resolve(jobPath), grid: [] };
    if (axes.length === 0) {
      admit(out, from, readJson(jobPath), () => loadJobFile(jobPath, CHAINS));
      return;
    }
    let raw: Record<string, unknown>;
    try {
      // Read and checked as a job first: a job file that does not parse at all gives no grid to vary.
      loadJobFile(jobPath, CHAINS);
      raw = JSON.parse(readFileSync(jobPath, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      if (!isCandidateProblem(error)) throw error;
      // Without a grid's values set, the file itself may be what is wrong (not JSON, say): every combination is skipped with it.
      raw = readJson(jobPath) as Record<string, unknown>;
      if (typeof raw !== 'object' || raw === null) {
        for (const combination of combinations(axes)) {
          const label = `${name} ${combination.map((c) => `${c.key}=${c.written}`).join(' ')}`;
          out.skipped.push(skippedOf({ id: out.candidates.length + out.skipped.length + 1, label, jobPath: resolve(jobPath), grid: combination.map((c) => ({ key: c.key, value: c.written })) }, error, 'check'));
        }
        return;
      }
    }
    for (const combination of combinations(axes)) {
      const label = `${name} ${combination.map((c) => `${c.key}=${c.written}`).join(' ')}`;
      const job = structuredClone(raw);
      const method = typeof job['method'] === 'object' && job['method'] !== null ? (job['method'] as Record<string, unknown>) : {};
      for (const c of combination) setAt(method, c.key, c.value);
      job['method'] = method;
      admit(out, { label, jobPath: resolve(jobPath), grid: combination.map((c) => ({ key: c.key, value: c.written })) }, job, () => parseJob(job, dirname(resolve(jobPath)), resolve(jobPath), CHAINS));
    }
  });
  return out;
}

/**
 * How many candidates job files and grids make, counted before any is built (a grid's candidates are
 * the product of its value counts), or a refusal: a grid with other than one job, or more candidates
 * than `maxCandidates` (the wizard's cap unless raised, never beyond MAX_CANDIDATES_LIMIT).
 */
export function plannedCandidates(jobFiles: number, axes: readonly GridAxis[], maxCandidates: number = MAX_CANDIDATES): number {
  if (axes.length > 0 && jobFiles !== 1) throw new JobError('--grid varies one job: give exactly one JOB.json with it', '--grid');
  if (jobFiles < 1) throw new JobError('compare needs at least one JOB.json');
  if (!Number.isSafeInteger(maxCandidates) || maxCandidates < 1 || maxCandidates > MAX_CANDIDATES_LIMIT) throw new JobError(`--max-candidates must be a whole number from 1 to ${formatCount(MAX_CANDIDATES_LIMIT)}`, '--max-candidates');
  const count = axes.reduce((n, axis) => n * axis.values.length, jobFiles);
  if (count > maxCandidates) {
    const raise = maxCandidates < MAX_CANDIDATES_LIMIT ? ` (--max-candidates raises that to at most ${formatCount(MAX_CANDIDATES_LIMIT)})` : '';
    const cap = `a comparison holds at most ${formatCount(maxCandidates)} candidates${raise}`;
    if (axes.length === 0) throw new JobError(`${formatCount(count)} job files make ${formatCount(count)} candidates; ${cap}: compare fewer at once`);
    const made = axes.map((a) => `${a.key} (${formatCount(a.values.length)} value${a.values.length === 1 ? '' : 's'})`).join(' × ');
    throw new JobError(`${made} make ${formatCount(count)} candidates; ${cap}: list fewer values`, '--grid');
  }
  return count;
}

/** Stands in for a job file's path where a candidate came from the app, not from a file. */
export const FROM_THE_APP = '(built in the app)';

/** The app's candidates: each job object parsed as `run` parses one; one that does not parse is skipped with its reason. */
export function candidatesOfJobs(jobs: readonly CandidateJob[], baseDir: string): CandidateList {
  if (jobs.length < 1) throw new JobError('compare needs at least one candidate');
  if (jobs.length > MAX_CANDIDATES) throw new JobError(`${jobs.length} candidates; a comparison holds at most ${MAX_CANDIDATES}: list fewer values`);
  const out = { candidates: [] as Candidate[], skipped: [] as SkippedCandidate[] };
  for (const c of jobs) admit(out, { label: c.label, jobPath: FROM_THE_APP, grid: c.grid }, c.job, () => parseJob(c.job, baseDir, undefined, CHAINS));
  return out;
}

/** The candidates of a request, from files and grids or from the app's job objects. */
export function candidatesOf(source: CandidateSource): CandidateList {
  return 'jobPaths' in source ? loadCandidates(source.jobPaths, source.grid.map(parseGridAxis), source.maxCandidates) : candidatesOfJobs(source.jobs, source.baseDir);
}
