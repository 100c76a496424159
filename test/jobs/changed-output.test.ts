/**
 * An output folder that someone changes while the job runs is refused as it
 * would have been before the run: a job problem (exit 2) naming the folder and
 * its key, never a stack trace, and nothing of the run left behind.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFailure, executeRequest } from '../../src/jobs/execute-request.js';
import { exitCodeOf } from '../../src/jobs/job-request.js';

function setUp(): { dir: string; job: object } {
  const dir = mkdtempSync(join(tmpdir(), 'custos-changed-'));
  writeFileSync(join(dir, 'in.csv'), ['age,sex,diagnosis', ...Array.from({ length: 120 }, (_, i) => `${20 + (i % 30)},${i % 2 ? 'F' : 'M'},d${i % 3}`)].join('\n') + '\n');
  const job = { version: 1, input: { path: 'in.csv' }, attributes: { diagnosis: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, output: { dir: 'release', formats: ['csv'], report: ['json'] } };
  return { dir, job };
}

/** Runs the job, calling `meanwhile` once when the run reports its first progress (the folders were checked by then). */
async function runChanging(dir: string, job: object, meanwhile: () => void): Promise<ReturnType<typeof describeFailure> | 'ok'> {
  let done = false;
  try {
    await executeRequest({ command: 'run', job, baseDir: dir, testSeed: 1 }, {
      onProgress: () => {
        if (done) return;
        done = true;
        meanwhile();
      },
    });
    return 'ok';
  } catch (error) {
    return describeFailure(error);
  }
}

describe('an output folder that changes during the run', () => {
  it('is refused with exit 2 naming the folder and its key, without a stack trace, when a note is added to the earlier release', async () => {
    const { dir, job } = setUp();
    expect(await runChanging(dir, job, () => undefined)).toBe('ok');
    const failure = await runChanging(dir, job, () => writeFileSync(join(dir, 'release', 'note.txt'), 'mine'));
    expect(failure).not.toBe('ok');
    const f = failure as Exclude<typeof failure, 'ok'>;
    expect(exitCodeOf(f.kind)).toBe(2);
    expect(f.key).toBe('output.dir');
    expect(f.message).toContain(join(dir, 'release'));
    expect(f.message).toMatch(/note\.txt.*changed while the job ran/);
    expect(f.message).not.toMatch(/\n\s+at /);
    // The note is kept, the earlier release too, and no staging folder is left.
    expect(readFileSync(join(dir, 'release', 'note.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(dir).sort()).toEqual(['in.csv', 'release', 'release-internal']);
  });

  it('the internal folder too, by its key', async () => {
    const { dir, job } = setUp();
    expect(await runChanging(dir, job, () => undefined)).toBe('ok');
    const failure = (await runChanging(dir, job, () => writeFileSync(join(dir, 'release-internal', 'draft.txt'), 'mine'))) as Exclude<Awaited<ReturnType<typeof runChanging>>, 'ok'>;
    expect(exitCodeOf(failure.kind)).toBe(2);
    expect(failure.key).toBe('output.internalDir');
    expect(failure.message).toContain(join(dir, 'release-internal'));
    expect(failure.message).not.toMatch(/\n\s+at /);
    expect(readdirSync(dir).sort()).toEqual(['in.csv', 'release', 'release-internal']);
  });
});
