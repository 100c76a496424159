import { existsSync, mkdtempSync, readdirSync, watch, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newStagingBuffer, rememberStaging, stagingPaths } from '../../src/jobs/staging-register.js';
import { startJob, startWorkerTask } from '../../src/jobs/worker-host.js';
import { ACCEPT_REVIEW } from '../accept-review.js';

const WORKER = new URL('../../dist/cli/job-worker.mjs', import.meta.url);

describe('cancelling a run leaves nothing behind, whenever the cancel lands', () => {
  it('the staging register holds every path written, in order', () => {
    const buffer = newStagingBuffer();
    expect(stagingPaths(buffer)).toEqual([]);
    rememberStaging(buffer, '/a/.release-internal.custos-tmp-1');
    rememberStaging(buffer, '/a/.release.custos-tmp-2 ü');
    expect(stagingPaths(buffer)).toEqual(['/a/.release-internal.custos-tmp-1', '/a/.release.custos-tmp-2 ü']);
  });

  it('cancels at 24 moments across the run; no staging folder and no release remain', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-cancel-'));
    writeFileSync(
      join(dir, 'job.json'),
      JSON.stringify({
        version: 1, input: { path: resolve('resources/adult/adult.csv'), delimiter: ';' }, attributes: { occupation: 'sensitive' },
        method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, output: { dir: 'out', formats: ['csv', 'xlsx'], report: ['json'] }, review: ACCEPT_REVIEW,
      }),
    );
    let finishedFirst = 0;
    for (let i = 0; i < 24; i++) {
      const job = startJob(WORKER, { command: 'run', jobPath: join(dir, 'job.json'), outDir: join(dir, `out-${i}`) });
      await new Promise((r) => setTimeout(r, 40 + i * 25));
      await job.cancel();
      const outcome = await job.result;
      if (outcome.ok) {
        // The run won the race: a complete release, which is fine; remove nothing.
        finishedFirst++;
        continue;
      }
      expect(outcome.failure.kind).toBe('cancelled');
      const left = readdirSync(dir).filter((name) => name.includes('custos-tmp') || name === `out-${i}` || name === `out-${i}-internal`);
      expect(left, `cancel ${i}`).toEqual([]);
    }
    expect(finishedFirst).toBeLessThan(24);
  });

  it('a cancel landing the moment a staging folder appears (after mkdir, before the worker could say so) leaves nothing behind', async () => {
    // The window of the Ctrl-C race, hit on purpose: the host sees the folder appear and cancels at
    // once. A host that learned staging paths from a message posted after mkdir left it behind here.
    const dir = mkdtempSync(join(tmpdir(), 'custos-cancel-'));
    writeFileSync(
      join(dir, 'job.json'),
      JSON.stringify({
        version: 1, input: { path: resolve('resources/adult/adult.csv'), delimiter: ';' }, attributes: { occupation: 'sensitive' },
        method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, output: { dir: 'out', formats: ['csv'], report: ['json'] }, review: ACCEPT_REVIEW,
      }),
    );
    for (let i = 0; i < 8; i++) {
      const job = startJob(WORKER, { command: 'run', jobPath: join(dir, 'job.json'), outDir: join(dir, `out-${i}`) });
      await new Promise<void>((done) => {
        const watcher = watch(dir, (_event, name) => {
          if (!name?.includes('custos-tmp')) return;
          watcher.close();
          void job.cancel().then(done);
        });
      });
      await job.result;
      const left = readdirSync(dir).filter((name) => name.includes('custos-tmp') || name.startsWith(`out-${i}`));
      expect(left, `cancel ${i}`).toEqual([]);
    }
  });

  it('a worker that dies while writing (a crash, running out of memory) has its staging folders removed by the host', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-died-'));
    for (const death of ['throw new Error("crash")', 'process.exit(7)', 'const hog = []; for (;;) hog.push(new Array(1e5).fill(1))']) {
      const staging = join(dir, `.release.custos-tmp-${death.length}`);
      // What a run does first (make its staging folder and register it), then the death.
      const source = `
        const { workerData } = require('node:worker_threads');
        const fs = require('node:fs');
        fs.mkdirSync(${JSON.stringify(staging)});
        fs.writeFileSync(${JSON.stringify(join(staging, 'release.csv'))}, 'half');
        const bytes = new TextEncoder().encode(${JSON.stringify(`${staging}\n`)});
        new Uint8Array(workerData.stagingBuffer, 4).set(bytes, 0);
        Atomics.store(new Int32Array(workerData.stagingBuffer, 0, 1), 0, bytes.length);
        ${death};`;
      const task = startWorkerTask<never, 'assess'>({ source }, { command: 'assess', jobPath: 'unused: the script is the test source' }, () => undefined, { maxOldGenerationSizeMb: 64 });
      const outcome = await task.result;
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.failure.kind).toBe('internal');
        if (death.includes('hog')) expect(outcome.failure.message).toMatch(/^Custos ran out of memory/);
      }
      expect(existsSync(staging), death).toBe(false);
    }
    expect(readdirSync(dir)).toEqual([]);
  }, 120_000);
});
