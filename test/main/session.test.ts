import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { testSession } from './test-session.js';
import * as XLSX from 'xlsx';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppSession, InvalidRequest } from '../../src/main/session.js';
import { IPC_CHANNELS } from '../../src/common/ipc/ipc-contract.js';
import { folderWrittenBy, GrantedAccess, OpenAccess } from '../../src/main/path-access.js';
import type { RecentJob } from '../../src/common/ipc/api.js';
import { ACCEPT_REVIEW } from '../accept-review.js';
import { ATTRIBUTES, BETA, RECODING, register } from '../chain/chain-job.js';

const session = testSession();

describe('IPC handlers validate every message', () => {
  it('rejects unknown channels, unknown keys and wrong types, naming the problem', async () => {
    await expect(session.dispatch('custos:exec', {})).rejects.toThrow(InvalidRequest);
    await expect(session.dispatch(IPC_CHANNELS.inspect, { path: 'x', options: {}, extra: 1 })).rejects.toThrow(/Unrecognized key/);
    await expect(session.dispatch(IPC_CHANNELS.rows, { fileId: 'not-a-uuid', offset: 0, count: 10 })).rejects.toThrow(/fileId/);
    await expect(session.dispatch(IPC_CHANNELS.rows, { fileId: crypto.randomUUID(), offset: 0, count: 1e6 })).rejects.toThrow(/count/);
    await expect(session.dispatch(IPC_CHANNELS.startRun, { job: {}, outDir: '' })).rejects.toThrow(/outDir/);
    await expect(session.dispatch(IPC_CHANNELS.inspect, { path: 42, options: {} })).rejects.toThrow(/path/);
  });

  it('checks every response against the contract before it leaves the host', async () => {
    // A host whose answer has a field the contract does not name, or a wrong value, is refused.
    const broken = new AppSession({
      info: { version: 'test', host: 'server' as 'web', samplePath: '/x', sampleName: 'x' },
      workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
      baseDir: process.cwd(),
      access: new OpenAccess(),
      chooseFile: async () => 42 as unknown as string,
      chooseFolder: async () => null,
      revealFolder: async () => undefined,
    });
    await expect(broken.dispatch(IPC_CHANNELS.appInfo, {})).rejects.toThrow(/custos:app-info response does not match the contract: host/);
    await expect(broken.dispatch(IPC_CHANNELS.chooseFile, {})).rejects.toThrow(/custos:choose-file response does not match the contract/);
    await expect(session.dispatch(IPC_CHANNELS.appInfo, {})).resolves.toMatchObject({ host: 'web', version: 'test' });
  });

  it('checks a hierarchy file against a column of an opened file, in plain words', async () => {
    const opened = (await session.dispatch(IPC_CHANNELS.inspect, { path: resolve('resources/adult/adult.csv'), options: { missing: ['', '?'] } })) as { ok: true; value: { fileId: string } };
    const check = (path: string, column: string) => session.dispatch(IPC_CHANNELS.checkHierarchy, { path: resolve(path), fileId: opened.value.fileId, column });
    await expect(check('resources/adult/adult_hierarchy_age.csv', 'age')).resolves.toMatchObject({ ok: true, value: { unmappedCount: 0, levels: 4 } });
    const wrong = (await check('resources/adult/adult_hierarchy_education.csv', 'age')) as { ok: true; value: { unmapped: string[]; unmappedCount: number } };
    expect(wrong.value.unmappedCount).toBeGreaterThan(50);
    expect(wrong.value.unmapped).toHaveLength(8);
    const missing = (await check('resources/adult/nothing-here.csv', 'age')) as { ok: false; failure: { message: string } };
    expect(missing.ok).toBe(false);
    expect(missing.failure.message).toMatch(/nothing-here\.csv: .*does not exist/);
    expect(missing.failure.message).not.toMatch(/ENOENT/);
  });

  it('lists the files opened before, newest first', async () => {
    await session.dispatch(IPC_CHANNELS.inspect, { path: resolve('resources/adult/adult.csv'), options: { missing: ['', '?'] } });
    const recent = (await session.dispatch(IPC_CHANNELS.recentFiles, {})) as string[];
    expect(recent[0]).toBe(resolve('resources/adult/adult.csv'));
    expect(new Set(recent).size).toBe(recent.length);
  });

  it('lists the jobs that ran before whose files may still be read, leaving out entries that are not jobs', async () => {
    const adult = resolve('resources/adult/adult.csv');
    const job = (input: string, hierarchy?: string) => ({ input: { path: input }, method: { type: 'safe-k-anonymity', ...(hierarchy ? { hierarchies: { age: hierarchy } } : {}) } });
    const stored: unknown[] = [
      { ranAt: '2026-11-24T06:00:00.000Z', inputName: 'adult.csv', methodType: 'safe-k-anonymity', job: job(adult) },
      // A hierarchy file the person never granted: the job cannot be restored here, so it is not offered.
      { ranAt: '2026-11-24T05:00:00.000Z', inputName: 'adult.csv', methodType: 'safe-k-anonymity', job: job(adult, '/elsewhere/age.csv') },
      // The preferences file edited by hand: not a recent job.
      { ranAt: 'yesterday', inputName: 'adult.csv', methodType: 'x', job: job(adult) },
      { ranAt: '2026-11-24T04:00:00.000Z', inputName: 'secret.csv', methodType: 'beta-privacy', job: job('/elsewhere/secret.csv') },
    ];
    const kept = new AppSession({
      info: { version: 'test', host: 'web', samplePath: adult, sampleName: 'Adult' },
      workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
      baseDir: process.cwd(),
      access: new GrantedAccess([adult]),
      recentJobs: { list: () => stored as RecentJob[], add: (entry) => stored.unshift(entry) },
      chooseFile: async () => null,
      chooseFolder: async () => null,
      revealFolder: async () => undefined,
    });
    const listed = (await kept.dispatch(IPC_CHANNELS.recentJobs, {})) as RecentJob[];
    expect(listed.map((r) => r.ranAt)).toEqual(['2026-11-24T06:00:00.000Z']);
  });

  it('leaves out recent files and jobs whose files were deleted since, and offers them again when they are back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-recent-gone-'));
    const kept = join(dir, 'kept.csv');
    const gone = join(dir, 'gone.csv');
    writeFileSync(kept, 'a,b\n1,2\n');
    writeFileSync(gone, 'a,b\n1,2\n');
    const files = [gone, kept, dir];
    const jobs: RecentJob[] = [
      { ranAt: '2026-11-24T06:00:00.000Z', inputName: 'gone.csv', methodType: 'reconstruction-privacy', job: { input: { path: gone }, method: { type: 'reconstruction-privacy' } } },
      { ranAt: '2026-11-24T05:00:00.000Z', inputName: 'kept.csv', methodType: 'reconstruction-privacy', job: { input: { path: kept }, method: { type: 'reconstruction-privacy' } } },
    ];
    const host = new AppSession({
      info: { version: 'test', host: 'web', samplePath: kept, sampleName: 'x' },
      workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
      baseDir: process.cwd(),
      access: new OpenAccess(),
      recent: { list: () => files, add: () => undefined },
      recentJobs: { list: () => jobs, add: () => undefined },
      chooseFile: async () => null,
      chooseFolder: async () => null,
      revealFolder: async () => undefined,
    });
    rmSync(gone);
    // A folder is no file to open either.
    expect(await host.dispatch(IPC_CHANNELS.recentFiles, {})).toEqual([kept]);
    expect(((await host.dispatch(IPC_CHANNELS.recentJobs, {})) as RecentJob[]).map((r) => r.inputName)).toEqual(['kept.csv']);
    writeFileSync(gone, 'a,b\n1,2\n');
    expect(await host.dispatch(IPC_CHANNELS.recentFiles, {})).toEqual([gone, kept]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('a job that runs to completion becomes the newest recent job', async () => {
    const job = JSON.parse(readFileSync('resources/demo/adult-job.json', 'utf8')) as { input: { path: string }; output: object };
    job.input.path = resolve('resources/demo', job.input.path);
    const out = mkdtempSync(join(tmpdir(), 'custos-recent-'));
    // The demo job accepts its failed disclosure review itself (review.acknowledge, with its reason).
    const started = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: join(out, 'release') })) as { ok: true; value: { id: string } };
    for (let i = 0; i < 600; i++) {
      const status = (await session.dispatch(IPC_CHANNELS.runStatus, { id: started.value.id })) as { state: string };
      if (status.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const listed = (await session.dispatch(IPC_CHANNELS.recentJobs, {})) as RecentJob[];
    // Recorded with the folder it wrote (not the page's word for it), so a restored job releases there again.
    const written = join(out, 'release');
    expect(listed[0]).toMatchObject({ inputName: 'adult.csv', job: { ...job, output: { ...job.output, dir: written } } });
    expect(folderWrittenBy(listed[0]!.job)).toBe(written);
    expect(folderWrittenBy({ output: { dir: 'release' } })).toBeUndefined();
    expect(folderWrittenBy(null)).toBeUndefined();
    rmSync(out, { recursive: true, force: true });
  });

  it('a chain job that runs to completion becomes a recent job too, named by both steps’ types in order', async () => {
    const dir = register(null);
    const job = { version: 1, input: { path: join(dir, 'register.csv') }, attributes: ATTRIBUTES, review: ACCEPT_REVIEW, output: { dir: 'out', formats: ['csv'], report: ['json'] }, method: [RECODING, BETA] };
    const started = (await session.dispatch(IPC_CHANNELS.startRun, { job, outDir: join(dir, 'release') })) as { ok: true; value: { id: string } };
    expect(started.ok).toBe(true);
    let state = 'running';
    for (let i = 0; i < 600 && state === 'running'; i++) {
      state = ((await session.dispatch(IPC_CHANNELS.runStatus, { id: started.value.id })) as { state: string }).state;
      if (state === 'running') await new Promise((r) => setTimeout(r, 50));
    }
    expect(state).toBe('done');
    const listed = (await session.dispatch(IPC_CHANNELS.recentJobs, {})) as RecentJob[];
    expect(listed[0]).toMatchObject({ inputName: 'register.csv', methodType: 'global-recoding,beta-privacy', job: { method: [RECODING, BETA] } });
    rmSync(dir, { recursive: true, force: true });
  });

  it('a release folder typed as a bare name lands beside the data, and is allowed there as the proposed one is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-bare-name-'));
    const input = join(dir, 'people.csv');
    writeFileSync(input, ['age,sex,diagnosis', ...Array.from({ length: 200 }, (_, i) => `${20 + (i % 30)},${i % 2 ? 'F' : 'M'},d${i % 3}`)].join('\n') + '\n');
    const host = new AppSession({
      info: { version: 'test', host: 'electron', samplePath: resolve('resources/adult/adult.csv'), sampleName: 'Adult' },
      workerUrl: new URL('../../dist/cli/job-worker.mjs', import.meta.url),
      // The app's own folder: nothing may be written here.
      baseDir: process.cwd(),
      access: new GrantedAccess([input]),
      chooseFile: async () => null,
      chooseFolder: async () => null,
      revealFolder: async () => undefined,
    });
    const job = { version: 1, input: { path: input }, attributes: { diagnosis: 'sensitive' }, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, output: { formats: ['csv'], report: ['json'], internalDir: 'notes-internal' }, review: ACCEPT_REVIEW };
    const started = (await host.dispatch(IPC_CHANNELS.startRun, { job, outDir: 'my-release' })) as { ok: boolean; value: { id: string } };
    expect(started.ok).toBe(true);
    let status = { state: 'running' } as { state: string; outDir?: string; internalDir?: string };
    for (let i = 0; i < 600 && status.state === 'running'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await host.dispatch(IPC_CHANNELS.runStatus, { id: started.value.id })) as typeof status;
    }
    expect(status).toMatchObject({ state: 'done', outDir: join(dir, 'my-release'), internalDir: join(dir, 'notes-internal') });
    expect(readFileSync(join(dir, 'my-release', 'release.csv'), 'utf8')).toContain('diagnosis');
    expect(existsSync(resolve('my-release'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves a file, then windows of its rows', async () => {
    const opened = (await session.dispatch(IPC_CHANNELS.inspect, { path: resolve('resources/adult/adult.csv'), options: { missing: ['', '?'] } })) as {
      ok: true;
      value: { fileId: string; rows: number; columns: { name: string; top: unknown[]; distinct: number }[] };
    };
    expect(opened.ok).toBe(true);
    expect(opened.value.rows).toBe(30162);
    const occupation = opened.value.columns.find((c) => c.name === 'occupation')!;
    expect(occupation.top).toHaveLength(occupation.distinct);
    const rows = (await session.dispatch(IPC_CHANNELS.rows, { fileId: opened.value.fileId, offset: 30160, count: 10 })) as { ok: true; value: string[][] };
    expect(rows.value).toHaveLength(2);
    expect(rows.value[0]).toHaveLength(9);
  });

  it('reports an unreadable file as a failure value, not a crash', async () => {
    const result = (await session.dispatch(IPC_CHANNELS.inspect, { path: '/nonexistent/file.csv', options: {} })) as { ok: false; failure: { kind: string; message: string } };
    expect(result.ok).toBe(false);
    expect(result.failure.kind).toBe('input');
    expect(result.failure.message).toMatch(/file\.csv: the file does not exist/);
  });

  it('assesses a job object in a worker and returns its failures with the key', async () => {
    const job = {
      version: 1,
      input: { path: resolve('resources/adult/adult.csv') },
      attributes: { occupation: 'sensitive' },
      method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 9, delta: 0.3, domains: { occupation: 'from-data' } },
    };
    const result = (await session.dispatch(IPC_CHANNELS.assess, { job })) as { ok: false; failure: { key: string } };
    expect(result.ok).toBe(false);
    expect(result.failure.key).toBe('method.epsilon');
  });
});

describe('an Open that fails says where once, and only the advice that fits its cause', () => {
  const dir = mkdtempSync(join(tmpdir(), 'custos-open-failure-'));
  type Failed = { ok: false; failure: { kind: string; message: string; format?: string; sheet?: string; sheets?: string[]; advice?: string; line?: number } };
  const inspect = (path: string, options: Record<string, unknown> = {}) => session.dispatch(IPC_CHANNELS.inspect, { path, options: { missing: [''], ...options } });

  it('a workbook whose first sheet is notes opens its data sheet; the notes sheet chosen fails naming it and listing every sheet', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['Confidential survey 2025 — do not distribute'], ['Generated', '2025-01-05']]), 'Notes');
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['id', 'sex', 'disease'], ...Array.from({ length: 20 }, (_, i) => [i + 1, i % 2 ? 'F' : 'M', ['flu', 'none'][i % 2]])]), 'Data 2025');
    const path = join(dir, 'survey.xlsx');
    writeFileSync(path, XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer);
    const first = (await inspect(path)) as { ok: true; value: { sheet: string; sheets: string[]; rows: number } };
    expect(first.value).toMatchObject({ sheet: 'Data 2025', sheets: ['Notes', 'Data 2025'], rows: 20 });
    const failed = (await inspect(path, { sheet: 'Notes' })) as Failed;
    expect(failed.ok).toBe(false);
    expect(failed.failure).toMatchObject({ kind: 'input', format: 'xlsx', sheet: 'Notes', sheets: ['Notes', 'Data 2025'], advice: 'sheet', line: 2 });
    expect(failed.failure.message).toBe("survey.xlsx, sheet “Notes”, line 2: every one of the sheet's 1 record(s) is malformed (the first: values beyond the 1 named columns)");
    const opened = (await inspect(path, { sheet: 'Data 2025' })) as { ok: true; value: { sheet: string; sheets: string[]; rows: number } };
    expect(opened.ok).toBe(true);
    expect(opened.value).toMatchObject({ sheet: 'Data 2025', sheets: ['Notes', 'Data 2025'], rows: 20 });
    // A sheet that is not there: every sheet is offered.
    const noSuch = (await inspect(path, { sheet: 'Daten' })) as Failed;
    expect(noSuch.failure).toMatchObject({ format: 'xlsx', sheets: ['Notes', 'Data 2025'], advice: 'sheet' });
  });

  it('delimited text: the location once, and the delimiter and encoding advised only where they can be the cause', async () => {
    const quote = join(dir, 'malformed.csv');
    writeFileSync(quote, 'a,b\n1,"open\n2,3\n');
    const q = (await inspect(quote)) as Failed;
    expect(q.failure.message).toBe('malformed.csv, line 2, column 2: a quoted field is never closed');
    expect(q.failure).toMatchObject({ format: 'csv', advice: 'reading-options' });
    const missing = (await inspect(join(dir, 'gone.csv'))) as Failed;
    expect(missing.failure.message).toBe('gone.csv: the file does not exist (or a link points nowhere)');
    expect(missing.failure.advice).toBe('path');
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, '');
    expect(((await inspect(empty)) as Failed).failure.advice).toBeUndefined();
  });

  it('files of statistical packages and Parquet files get no delimiter or encoding advice', async () => {
    const nested = (await inspect(resolve('test/fixtures/parquet/nested.parquet'))) as Failed;
    expect(nested.ok).toBe(false);
    expect(nested.failure.format).toBe('parquet');
    expect(nested.failure.advice).toBeUndefined();
    expect(nested.failure.message).toMatch(/^nested\.parquet: /);
  });
});

describe('reading a file never blocks the host', () => {
  it('answers other requests while a large file is read in a worker; a FIFO is refused at once', async () => {
    const { mkdtempSync, openSync, closeSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { execFileSync } = await import('node:child_process');
    const { writeCensus } = await import('../../bench/gen-census.js');
    const dir = mkdtempSync(join(tmpdir(), 'custos-session-'));
    const big = join(dir, 'census.csv');
    const fd = openSync(big, 'w');
    writeCensus(fd, { rows: 400_000, seed: 1, jitter: 2, regions: 50, seedFile: resolve('resources/adult/adult.csv') });
    closeSync(fd);
    let inspected = false;
    const started = Date.now();
    const reading = session.dispatch(IPC_CHANNELS.inspect, { path: big, options: {} }).then((r) => {
      inspected = true;
      return r as { ok: boolean; value: { rows: number } };
    });
    // Called synchronously, a blocking read would finish before this line runs.
    expect(Date.now() - started).toBeLessThan(100);
    const info = await session.dispatch(IPC_CHANNELS.appInfo, {});
    expect(info).toMatchObject({ version: 'test' });
    expect(inspected).toBe(false);
    const result = await reading;
    expect(result.ok).toBe(true);
    expect(result.value.rows).toBe(400_000);
    execFileSync('mkfifo', [join(dir, 'pipe.csv')]);
    const fifoStart = Date.now();
    const fifo = (await session.dispatch(IPC_CHANNELS.inspect, { path: join(dir, 'pipe.csv'), options: {} })) as { ok: boolean; failure: { message: string } };
    expect(fifo.ok).toBe(false);
    expect(fifo.failure.message).toMatch(/named pipe/);
    expect(Date.now() - fifoStart).toBeLessThan(5000);
  });
});
