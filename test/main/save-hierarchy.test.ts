import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppSession } from '../../src/main/session.js';
import { GrantedAccess } from '../../src/main/path-access.js';
import { IPC_CHANNELS } from '../../src/common/ipc/ipc-contract.js';
import { readHierarchyRows } from '../../src/io/input/hierarchy-reader.js';
import { testSession } from './test-session.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-save-hierarchy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rows = [
  ['Oslo', 'Østlandet', 'Norway', '*'],
  ['Lund', 'Skåne', 'Sweden', '*'],
];

describe('the hierarchy builder saves its table as an ARX file', () => {
  it('writes a new file the job reader reads back, and writes it again when the builder saves again', async () => {
    const session = testSession();
    const path = join(dir, 'towns-hierarchy.csv');
    await expect(session.dispatch(IPC_CHANNELS.saveHierarchy, { path, rows })).resolves.toEqual({ ok: true, value: { path } });
    expect(readHierarchyRows(path)).toEqual(rows);
    const again = [...rows, ['Malmö', 'Skåne', 'Sweden', '*']];
    await expect(session.dispatch(IPC_CHANNELS.saveHierarchy, { path, rows: again })).resolves.toMatchObject({ ok: true });
    expect(readHierarchyRows(path)).toEqual(again);
    // Nothing but the file: the temporary name was renamed into place.
    expect(readdirSync(dir).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('never replaces a file Custos did not write in this session, and names it', async () => {
    const path = join(dir, 'mine.csv');
    writeFileSync(path, 'the custodian\'s own file\n');
    const answer = await testSession().dispatch(IPC_CHANNELS.saveHierarchy, { path, rows });
    expect(answer).toMatchObject({ ok: false, failure: { kind: 'job', message: 'mine.csv is there already and Custos did not write it in this session: choose another name' } });
    expect(readFileSync(path, 'utf8')).toBe('the custodian\'s own file\n');
  });

  it('reads a hierarchy file back for the builder, or says where it is malformed', async () => {
    const session = testSession();
    const broken = join(dir, 'broken.csv');
    writeFileSync(broken, 'Oslo;Østlandet;*\nLund;*\n');
    await expect(session.dispatch(IPC_CHANNELS.readHierarchy, { path: broken })).resolves.toEqual({ ok: false, failure: { kind: 'input', message: 'broken.csv, line 2: this row of the hierarchy has 2 levels where the first (line 1) has 3' } });
  });

  it('refuses a name that is not a .csv file, and a row without a level', async () => {
    const session = testSession();
    await expect(session.dispatch(IPC_CHANNELS.saveHierarchy, { path: join(dir, 'towns.txt'), rows })).resolves.toMatchObject({ ok: false, failure: { message: 'a hierarchy file is a .csv file: name it towns.txt.csv' } });
    expect(existsSync(join(dir, 'towns.txt'))).toBe(false);
    await expect(session.dispatch(IPC_CHANNELS.saveHierarchy, { path: join(dir, 'one.csv'), rows: [['Oslo']] })).rejects.toThrow(/rows/);
  });

  it('on the desktop, writes beside a file the person opened and grants the new file to the page', async () => {
    const input = join(dir, 'register.csv');
    writeFileSync(input, 'town\nOslo\n');
    const access = new GrantedAccess();
    access.grantFile(input);
    const session = new AppSession({
      info: { version: 'test', host: 'electron', samplePath: resolve('resources/adult/adult.csv'), sampleName: 'Adult' },
      workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
      baseDir: process.cwd(),
      access,
      chooseFile: async () => null,
      chooseFolder: async () => null,
      revealFolder: async () => undefined,
    });
    const beside = join(dir, 'register-town-hierarchy.csv');
    expect(access.mayRead(beside)).toBe(false);
    await expect(session.dispatch(IPC_CHANNELS.saveHierarchy, { path: beside, rows })).resolves.toMatchObject({ ok: true });
    expect(access.mayRead(beside)).toBe(true);
    // The builder reads back what it saved (its groups after a reload); a file the person never chose it does not.
    await expect(session.dispatch(IPC_CHANNELS.readHierarchy, { path: beside })).resolves.toEqual({ ok: true, value: rows });
    const unchosen = join(dir, 'not-chosen.csv');
    writeFileSync(unchosen, 'Oslo;Norway\n');
    await expect(session.dispatch(IPC_CHANNELS.readHierarchy, { path: unchosen })).resolves.toMatchObject({ ok: false, failure: { message: 'not-chosen.csv was not opened in Custos: choose it with Choose…' } });
    const elsewhere = join(mkdtempSync(join(tmpdir(), 'custos-elsewhere-')), 'h.csv');
    await expect(session.dispatch(IPC_CHANNELS.saveHierarchy, { path: elsewhere, rows })).resolves.toMatchObject({ ok: false, failure: { message: 'Custos writes only into a folder you chose: choose the folder for h.csv' } });
    expect(existsSync(elsewhere)).toBe(false);
  });
});

it('a file the app opens for its own view (the release beside the input) stays off the recent files', async () => {
  const session = testSession();
  const release = join(dir, 'release.csv');
  writeFileSync(release, 'town\nOslo\nLund\n');
  await expect(session.dispatch(IPC_CHANNELS.inspect, { path: release, options: { recent: false } })).resolves.toMatchObject({ ok: true });
  expect(await session.dispatch(IPC_CHANNELS.recentFiles, {})).toEqual([]);
  await session.dispatch(IPC_CHANNELS.inspect, { path: release, options: {} });
  expect(await session.dispatch(IPC_CHANNELS.recentFiles, {})).toEqual([release]);
});

it('on the desktop, the files a run wrote may be read back by the page (the before/after view), the internal report not', async () => {
  const job = JSON.parse(readFileSync('resources/demo/adult-job.json', 'utf8')) as { input: { path: string }; output: object };
  job.input.path = resolve('resources/demo', job.input.path);
  const out = mkdtempSync(join(tmpdir(), 'custos-grant-release-'));
  const access = new GrantedAccess();
  access.grantFile(job.input.path);
  access.grantFolder(out);
  const session = new AppSession({
    info: { version: 'test', host: 'electron', samplePath: resolve('resources/adult/adult.csv'), sampleName: 'Adult' },
    workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
    baseDir: process.cwd(),
    access,
    chooseFile: async () => null,
    chooseFolder: async () => null,
    revealFolder: async () => undefined,
  });
  const release = join(out, 'release');
  expect(access.mayRead(join(release, 'release.csv'))).toBe(false);
  const started = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: release })) as { ok: true; value: { id: string } };
  let state = 'running';
  for (let i = 0; i < 1200 && state === 'running'; i++) {
    state = ((await session.dispatch(IPC_CHANNELS.runStatus, { id: started.value.id })) as { state: string }).state;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(state).toBe('done');
  expect(access.mayRead(join(release, 'release.csv'))).toBe(true);
  expect(access.mayRead(join(`${release}-internal`, 'internal-report.json'))).toBe(false);
  await session.close();
  rmSync(out, { recursive: true, force: true });
}, 120_000);
