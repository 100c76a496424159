import { readFileSync, statSync } from 'node:fs';
import { describeErrno } from '../io/input/file-kind.js';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { withoutHelp } from '../common/job/job-notes.js';
import { JobError } from '../common/job/job-error.js';
import { jobSchema } from '../mechanisms/job-schema.js';
import type { Job } from '../mechanisms/definitions.js';
import { chainColumnProblems, chainJobSchema, chainSteps, chainTypeProblem, isChainMethod, type ChainJob, type ChainSteps } from '../mechanisms/chain.js';
import { formatCount } from '../common/format/numbers.js';

export interface LoadedJob {
  /** The job as its method runs; of a chain, the last step's (the release is its tables). */
  readonly job: Job;
  /** A chain of two methods (src/mechanisms/chain.ts): the job as written, and each step as the job it runs as. */
  readonly chain?: { readonly job: ChainJob; readonly steps: ChainSteps };
  /** Folder the job's relative paths are resolved against. */
  readonly baseDir: string;
  readonly path?: string;
}

function keyOf(path: readonly (string | number)[]): string {
  return path.reduce<string>((key, part) => (typeof part === 'number' ? `${key}[${part}]` : key ? `${key}.${part}` : part), '');
}

/** A job file is a few kilobytes; explicit query lists reach hundreds. Beyond this it is not a job. */
export const MAX_JOB_BYTES = 4 * 1024 * 1024;
/** The deepest a valid job nests is about six levels. */
export const MAX_JOB_DEPTH = 32;

/**
 * The first number that is not finite (JSON's 1e309 parses to Infinity) and
 * whether the nesting is deeper than any job. Iterative, so a hostile depth
 * cannot overflow the stack.
 */
function shapeProblem(value: unknown): { key: string; message: string } | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (path.length > MAX_JOB_DEPTH) return { key: keyOf(path.slice(0, 3)), message: `the job nests deeper than ${MAX_JOB_DEPTH} levels; it is not a Custos job` };
    if (typeof v === 'number' && !Number.isFinite(v)) return { key: keyOf(path), message: `${keyOf(path)}: must be a finite number (${String(v)} is not)` };
    if (Array.isArray(v)) v.forEach((item, i) => stack.push({ value: item, path: [...path, i] }));
    else if (typeof v === 'object' && v !== null) for (const [k, item] of Object.entries(v)) stack.push({ value: item, path: [...path, k] });
  }
  return null;
}

/** The nesting depth of JSON text, counted without parsing (strings skipped), stopping at the limit. */
function tooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > MAX_JOB_DEPTH) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** Where chains are taken: by a caller that runs both steps (run, assess and the app's preview, compare, verify); a caller that reads `LoadedJob.job` alone must not get one. */
export interface ParseOptions {
  readonly chains?: boolean;
}

/** A chain where one method is taken: refused by name, never run as its last step alone. */
const CHAIN_NOT_HERE = 'a chain of methods (a list) is not taken here: this reader takes one method object';

/** Validates a parsed job; every problem is reported with its key. */
export function parseJob(written: unknown, baseDir: string, path?: string, options: ParseOptions = {}): LoadedJob {
  // Notes for people (custos init writes them) are not part of the job.
  const value = withoutHelp(written);
  const problem = shapeProblem(value);
  if (problem) throw new JobError(problem.message, problem.key || undefined);
  const method = typeof value === 'object' && value !== null ? (value as { method?: unknown }).method : undefined;
  if (isChainMethod(method)) {
    if (!options.chains) throw new JobError(CHAIN_NOT_HERE, 'method');
    return parseChain(value, baseDir, path);
  }
  const result = jobSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => describeIssue(issue));
    const first = result.error.issues[0]!;
    throw new JobError(issues.join('; '), keyOf(first.path) || undefined, issues);
  }
  return { job: result.data, baseDir, ...(path ? { path } : {}) };
}

/** A chain: the rules on its steps' types first (a refusal names the step), then each step's parameters, then the columns. */
function parseChain(value: unknown, baseDir: string, path?: string): LoadedJob {
  const typeProblem = chainTypeProblem((value as { method: readonly unknown[] }).method);
  if (typeProblem) throw new JobError(typeProblem.message, typeProblem.key);
  const result = chainJobSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => describeIssue(issue));
    throw new JobError(issues.join('; '), keyOf(result.error.issues[0]!.path) || undefined, issues);
  }
  const job = result.data as ChainJob;
  const problems = chainColumnProblems(job);
  if (problems.length > 0) throw new JobError(problems.map((p) => `${p.key}: ${p.message}`).join('; '), problems[0]!.key, problems.map((p) => `${p.key}: ${p.message}`));
  const steps = chainSteps(job);
  return { job: steps[1], chain: { job, steps }, baseDir, ...(path ? { path } : {}) };
}

/** A union's own message says little; the most specific branch problem (a failed refinement) says more. */
function specificIssue(issue: z.ZodIssue): z.ZodIssue {
  if (issue.code !== z.ZodIssueCode.invalid_union) return issue;
  const nested = issue.unionErrors.flatMap((e) => e.issues).map(specificIssue);
  return nested.find((i) => i.code === z.ZodIssueCode.custom) ?? nested.find((i) => i.code === z.ZodIssueCode.too_small || i.code === z.ZodIssueCode.too_big) ?? issue;
}

function describeIssue(raw: z.ZodIssue): string {
  const issue = specificIssue(raw);
  const key = keyOf(issue.path);
  if (issue.code === z.ZodIssueCode.unrecognized_keys) {
    return `${key ? `${key}: ` : ''}unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`;
  }
  return key ? `${key}: ${issue.message}` : issue.message;
}

export function loadJobFile(path: string, options: ParseOptions = {}): LoadedJob {
  const absolute = resolve(path);
  let text: string;
  try {
    const stat = statSync(absolute);
    if (!stat.isFile()) throw new JobError(`the job file ${path} is ${stat.isDirectory() ? 'a folder' : 'not a regular file'}`);
    if (stat.size > MAX_JOB_BYTES) throw new JobError(`the job file ${path} has ${formatCount(stat.size)} bytes, more than the ${MAX_JOB_BYTES / 1024 / 1024} MiB a job can have; it is not a Custos job`);
    // A byte-order mark, as Notepad writes one, is not part of the JSON.
    text = readFileSync(absolute, 'utf8').replace(/^\uFEFF/, '');
  } catch (error) {
    if (error instanceof JobError) throw error;
    throw new JobError(`cannot read the job file ${path}: ${describeErrno((error as NodeJS.ErrnoException).code)}`);
  }
  if (tooDeep(text)) throw new JobError(`the job file ${path} nests deeper than ${MAX_JOB_DEPTH} levels; it is not a Custos job`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JobError(`${path}${jsonErrorPlace(text, (error as Error).message)} is not valid JSON: ${(error as Error).message}`);
  }
  return parseJob(value, dirname(absolute), absolute, options);
}

/** ":line:column" of a JSON syntax error, from the character position V8 reports ("at position 242"). */
function jsonErrorPlace(text: string, message: string): string {
  const at = /at position (\d+)/.exec(message);
  if (!at) return '';
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return `:${line}:${before.length - before.lastIndexOf('\n')}`;
}
