import { describe, expect, it } from 'vitest';
import { helperWorkerBeside, jobWorkerBeside } from '../../src/jobs/bundled-scripts.js';

describe('the helpers\' script beside a bundle', () => {
  it('keeps the bundle\'s folder and extension: the command line\'s .mjs, the desktop build\'s .js, a .cjs, a source .ts', () => {
    expect(String(helperWorkerBeside('file:///opt/custos/dist/cli/job-worker.mjs'))).toBe('file:///opt/custos/dist/cli/helper-worker.mjs');
    expect(String(helperWorkerBeside('file:///opt/custos/out/main/job-worker.js'))).toBe('file:///opt/custos/out/main/helper-worker.js');
    expect(String(helperWorkerBeside('file:///opt/custos/out/main/job-worker.cjs'))).toBe('file:///opt/custos/out/main/helper-worker.cjs');
    expect(String(helperWorkerBeside('file:///work/src/jobs/job-worker.ts'))).toBe('file:///work/src/jobs/helper-worker.ts');
    // The job worker's own name is unchanged.
    expect(String(jobWorkerBeside('file:///opt/custos/dist/cli/custos-main.mjs'))).toBe('file:///opt/custos/dist/cli/job-worker.mjs');
  });
});
