/**
 * The app's runs obey the same placement rules as the command line: a release
 * folder the page names inside a release Custos wrote is refused as a job
 * problem naming both folders, and nothing is written into that release.
 */
import { testSession } from './test-session.js';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { IPC_CHANNELS } from '../../src/common/ipc/ipc-contract.js';
import type { RunStatus } from '../../src/common/ipc/api.js';
import { ACCEPT_REVIEW } from '../accept-review.js';

const session = testSession();

const dir = mkdtempSync(join(tmpdir(), 'custos-host-placement-'));
afterAll(async () => {
  await session.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(job: object, outDir: string): Promise<RunStatus> {
  const started = (await session.dispatch(IPC_CHANNELS.startRun, { job: { ...job, review: ACCEPT_REVIEW }, outDir })) as { ok: true; value: { id: string } };
  expect(started.ok).toBe(true);
  for (;;) {
    const status = (await session.dispatch(IPC_CHANNELS.runStatus, { id: started.value.id })) as RunStatus;
    if (status.state !== 'running') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('start-run places its folders as run does', () => {
  it('refuses a release folder inside a release Custos wrote, naming both, and writes nothing there', async () => {
    const input = join(dir, 'people.csv');
    writeFileSync(input, ['age,sex,diagnosis', ...Array.from({ length: 150 }, (_, i) => `${20 + (i % 30)},${i % 2 ? 'F' : 'M'},d${i % 3}`)].join('\n') + '\n');
    const job = { version: 1, input: { path: input }, attributes: { diagnosis: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, output: { formats: ['csv'], report: ['json'] } };
    const release = join(dir, 'release');
    expect((await run(job, release)).state).toBe('done');
    const files = readdirSync(release).sort();
    const inside = await run(job, join(release, 'sub'));
    expect(inside.state).toBe('failed');
    expect(inside.failure?.kind).toBe('job');
    expect(inside.failure?.message).toContain(join(release, 'sub'));
    expect(inside.failure?.message).toContain(`inside ${release}, a release folder Custos wrote`);
    // The internal folder the page names is refused the same way.
    const internal = await run({ ...job, output: { ...job.output, internalDir: join(release, 'notes') } }, join(dir, 'other'));
    expect(internal.state).toBe('failed');
    expect(internal.failure).toMatchObject({ kind: 'job', key: 'output.internalDir' });
    expect(internal.failure?.message).toContain(join(release, 'notes'));
    expect(readdirSync(release).sort()).toEqual(files);
    expect(readdirSync(dir).sort()).toEqual(['people.csv', 'release', 'release-internal']);
  }, 60_000);

  it('asks before replacing a release: a run into one is refused until the page says replace, and a new folder is offered beside it', async () => {
    const input = join(dir, 'again.csv');
    writeFileSync(input, ['age,sex,diagnosis', ...Array.from({ length: 150 }, (_, i) => `${20 + (i % 30)},${i % 2 ? 'F' : 'M'},d${i % 3}`)].join('\n') + '\n');
    const job = { version: 1, input: { path: input }, attributes: { diagnosis: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, output: { formats: ['csv'], report: ['json'] }, review: ACCEPT_REVIEW };
    const release = join(dir, 'again-release');
    expect(await session.dispatch(IPC_CHANNELS.freeFolder, { path: release })).toBe(release);
    expect((await run(job, release)).state).toBe('done');
    const manifest = readFileSync(join(release, 'manifest.json'), 'utf8');
    expect(await session.dispatch(IPC_CHANNELS.freeFolder, { path: release })).toBe(`${release}-2`);
    const asked = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: release })) as { ok: false; failure: { existingRelease?: boolean; key?: string; message: string } };
    expect(asked.ok).toBe(false);
    expect(asked.failure).toMatchObject({ existingRelease: true, key: 'output.dir' });
    expect(asked.failure.message).toContain(`${release} already holds a release`);
    expect(readFileSync(join(release, 'manifest.json'), 'utf8')).toBe(manifest);
    const started = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: release, replace: true })) as { ok: boolean; value: { id: string } };
    expect(started.ok).toBe(true);
    for (;;) {
      const status = (await session.dispatch(IPC_CHANNELS.runStatus, { id: started.value.id })) as RunStatus;
      if (status.state === 'running') await new Promise((r) => setTimeout(r, 50));
      else {
        expect(status.state).toBe('done');
        break;
      }
    }
    expect(readFileSync(join(release, 'manifest.json'), 'utf8')).not.toBe(manifest);
  }, 60_000);
});
