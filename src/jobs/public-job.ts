import { basename } from 'node:path';
import type { Job } from '../mechanisms/definitions.js';

/**
 * The job as the release folder describes it: every parameter of the method, but
 * no input checksum (a membership oracle for anyone holding a candidate file), no sheet name,
 * no folder names (they tell where the confidential data lives) and no pointer
 * to the internal report. File names stay so a reader can tell which hierarchy
 * was used; the internal folder keeps the job that reproduces the run.
 */
export function publicJob(job: Job): Job {
  // The sheet's name is the custodian's label for the data (it can say what the file holds).
  const { sha256: _sha256, sheet: _sheet, ...input } = job.input;
  const { internalDir: _internalDir, ...output } = job.output;
  const method = job.method;
  const withHierarchyNames =
    'hierarchies' in method
      ? {
          ...method,
          hierarchies: Object.fromEntries(Object.entries(method.hierarchies).map(([column, spec]) => [column, typeof spec === 'string' ? basename(spec) : spec])),
        }
      : method;
  return { ...job, input: { ...input, path: basename(job.input.path) }, method: withHierarchyNames as Job['method'], output: { ...output, dir: basename(output.dir) } };
}
