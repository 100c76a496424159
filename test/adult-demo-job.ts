import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const DEMO = resolve('resources/demo/adult-global-recoding-job.json');

/** The demo job's hierarchies, each file's path made absolute. */
export function adultDemoHierarchies(): Record<string, unknown> {
  const job = JSON.parse(readFileSync(DEMO, 'utf8'));
  for (const column of Object.keys(job.method.hierarchies)) job.method.hierarchies[column] = resolve('resources/demo', job.method.hierarchies[column]);
  return job.method.hierarchies;
}

/** What the written job releases: CSV and a JSON report into out/ unless told otherwise ('demo': the demo job's own output). */
const CSV_AND_JSON = { dir: 'out', formats: ['csv'], report: ['json'] };

/**
 * The Adult global-recoding demo job with absolute paths, its method and roles changed by the given
 * fields, CSV and a JSON report as output (or the given output), written as job.json in a fresh
 * folder (prefix names it).
 */
export function writeAdultDemoJob(prefix: string, method: Record<string, unknown>, attributes: Record<string, string> = {}, output: Record<string, unknown> | 'demo' = CSV_AND_JSON): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const job = JSON.parse(readFileSync(DEMO, 'utf8'));
  job.input.path = resolve('resources/adult/adult.csv');
  for (const column of Object.keys(job.method.hierarchies)) job.method.hierarchies[column] = resolve('resources/demo', job.method.hierarchies[column]);
  Object.assign(job.method, method);
  Object.assign(job.attributes, attributes);
  if (output !== 'demo') job.output = output;
  writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
  return { dir, path: join(dir, 'job.json') };
}
