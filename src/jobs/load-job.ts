import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { JobError } from './job-error.js';
import { jobSchema, type Job } from './job-schema.js';

export interface LoadedJob {
  readonly job: Job;
  /** Folder the job's relative paths are resolved against. */
  readonly baseDir: string;
  readonly path?: string;
}

function keyOf(path: readonly (string | number)[]): string {
  return path.reduce<string>((key, part) => (typeof part === 'number' ? `${key}[${part}]` : key ? `${key}.${part}` : part), '');
}

/** Validates a parsed job; every problem is reported with its key. */
export function parseJob(value: unknown, baseDir: string, path?: string): LoadedJob {
  const result = jobSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => describeIssue(issue));
    const first = result.error.issues[0]!;
    throw new JobError(issues.join('; '), keyOf(first.path) || undefined, issues);
  }
  return { job: result.data, baseDir, ...(path ? { path } : {}) };
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

export function loadJobFile(path: string): LoadedJob {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new JobError(`cannot read the job file ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JobError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseJob(value, dirname(absolute), absolute);
}
