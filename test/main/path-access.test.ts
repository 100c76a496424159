import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GrantedAccess } from '../../src/main/path-access.js';
import { AppSession } from '../../src/main/session.js';
import { IPC_CHANNELS } from '../../src/common/ipc/ipc-contract.js';
import { ACCEPT_REVIEW } from '../accept-review.js';

const ADULT = resolve('resources/adult/adult.csv');

/** A desktop session whose dialogs answer what the test says the user picked. */
function desktop(picks: { file?: string; folder?: string } = {}): AppSession {
  return new AppSession({
    info: { version: 'test', host: 'electron', samplePath: ADULT, sampleName: 'Adult' },
    workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
    baseDir: tmpdir(),
    access: new GrantedAccess(),
    chooseFile: async () => picks.file ?? null,
    chooseFolder: async () => picks.folder ?? null,
    revealFolder: async () => undefined,
  });
}

type Failed = { ok: false; failure: { kind: string; message: string; key?: string } };

describe('the desktop session opens and writes only what the user granted', () => {
  it('refuses to inspect a file the page names (e.g. /etc/passwd) until the user picks it', async () => {
    const session = desktop({ file: ADULT });
    const secret = (await session.dispatch(IPC_CHANNELS.inspect, { path: '/etc/passwd', options: {} })) as Failed;
    expect(secret.ok).toBe(false);
    expect(secret.failure.message).toMatch(/passwd was not opened in Custos/);
    const before = (await session.dispatch(IPC_CHANNELS.inspect, { path: ADULT, options: {} })) as Failed;
    expect(before.ok).toBe(false);
    expect(await session.dispatch(IPC_CHANNELS.chooseFile, {})).toBe(ADULT);
    const after = (await session.dispatch(IPC_CHANNELS.inspect, { path: ADULT, options: { missing: ['', '?'] } })) as { ok: boolean };
    expect(after.ok).toBe(true);
  });

  it('a job names only files the user granted: its input, its hierarchies; a job file grants the files it names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-grant-'));
    copyFileSync(ADULT, join(dir, 'data.csv'));
    writeFileSync(join(dir, 'age.csv'), '17;*\n');
    const job = { version: 1, input: { path: join(dir, 'data.csv') }, attributes: { occupation: 'sensitive' }, method: { type: 'safe-k-anonymity', k: 5, sampling: 0.1, hierarchies: { age: '/etc/shadow' } } };
    const session = desktop();
    const refused = (await session.dispatch(IPC_CHANNELS.assess, { job })) as Failed;
    expect(refused.failure.message).toMatch(/data\.csv was not opened/);
    // The user opens a job file (dialog or drop): its input and hierarchy files are granted with it.
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ ...job, input: { path: 'data.csv' }, method: { ...job.method, hierarchies: { age: 'age.csv' } } }));
    await session.dispatch(IPC_CHANNELS.grantFile, { path: join(dir, 'job.json') });
    const shadow = (await session.dispatch(IPC_CHANNELS.assess, { job })) as Failed;
    expect(shadow.failure.message).toMatch(/shadow was not opened/);
    expect(((await session.dispatch(IPC_CHANNELS.inspect, { path: join(dir, 'data.csv'), options: {} })) as { ok: boolean }).ok).toBe(true);
  });

  it('writes a release only into a chosen folder or a new folder beside the opened data; links cannot widen a grant', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-grant-'));
    const data = join(dir, 'data', 'adult.csv');
    mkdirSync(join(dir, 'data'));
    copyFileSync(ADULT, data);
    const chosen = join(dir, 'chosen');
    mkdirSync(chosen);
    symlinkSync('/etc', join(chosen, 'link'));
    const session = desktop({ file: data, folder: chosen });
    await session.dispatch(IPC_CHANNELS.chooseFile, {});
    const job = { version: 1, input: { path: data, delimiter: ';' }, attributes: { occupation: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { occupation: 'from-data' } }, output: { formats: ['csv'] }, review: ACCEPT_REVIEW };
    const anywhere = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: '/tmp/custos-not-chosen/release' })) as Failed;
    expect(anywhere.ok).toBe(false);
    expect(anywhere.failure.key).toBe('output.dir');
    const internalElsewhere = (await session.dispatch(IPC_CHANNELS.startRun, { job: { ...job, output: { ...job.output, internalDir: '/tmp/custos-not-chosen/x' } }, outDir: join(dir, 'data', 'release') })) as Failed;
    expect(internalElsewhere.failure.key).toBe('output.internalDir');
    expect(await session.dispatch(IPC_CHANNELS.chooseFolder, {})).toBe(chosen);
    const viaLink = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: join(chosen, 'link', 'release') })) as Failed;
    expect(viaLink.ok).toBe(false);
    const inChosen = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: join(chosen, 'release') })) as { ok: boolean; value: { id: string } };
    expect(inChosen.ok).toBe(true);
    await session.dispatch(IPC_CHANNELS.cancelRun, { id: inChosen.value.id });
    const beside = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: join(dir, 'data', 'release') })) as { ok: boolean; value: { id: string } };
    expect(beside.ok).toBe(true);
    await session.dispatch(IPC_CHANNELS.cancelRun, { id: beside.value.id });
  });
});
