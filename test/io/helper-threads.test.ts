import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { riskProfile } from '../../src/common/risk/risk-profile.js';
import { startHelper, stopIdleHelpers } from '../../src/io/helper-threads.js';
import type { CsvChunkRequest, CsvChunkResult } from '../../src/io/input/csv-chunk.js';
import type { RiskProfileHelperData } from '../../src/jobs/review/risk-profile-helper.js';

/*
 * One-shot helpers (a second reader, the risk profile) hand their thread on: the job-worker script
 * serves the next one's work posted as { helperWork }. A stopped thread is never handed out.
 */
const SCRIPT = pathToFileURL(resolve('dist/cli/job-worker.mjs'));
const dir = mkdtempSync(join(tmpdir(), 'custos-helpers-'));
afterAll(() => stopIdleHelpers());

/** Waits (without an event loop, as the job's thread does) for the helper's one reply. */
async function reply<T>(port: import('node:worker_threads').MessagePort, posted: SharedArrayBuffer): Promise<T> {
  const flag = new Int32Array(posted);
  for (let waited = 0; Atomics.load(flag, 0) === 0 && waited < 30_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
  const got = receiveMessageOnPort(port);
  port.close();
  return got!.message as T;
}

function csvWork(path: string, start: number, end: number): { work: CsvChunkRequest; port: import('node:worker_threads').MessagePort; transfer: [import('node:worker_threads').MessagePort]; posted: SharedArrayBuffer } {
  const { port1, port2 } = new MessageChannel();
  const posted = new SharedArrayBuffer(4);
  return { work: { command: 'csv-chunk', path, start, end, encoding: 'utf-8', delimiter: ',', header: ['a', 'b'], missing: [''], onBadRow: 'error', port: port2, posted }, port: port1, transfer: [port2], posted };
}

describe('helper threads are handed on', () => {
  it('serves a second reader, then the risk profile on the same thread, and never reuses a stopped one', async () => {
    const path = join(dir, 'part.csv');
    writeFileSync(path, 'a,b\n1,x\n2,y\n1,x\n');
    const first = csvWork(path, 4, 16);
    const reader = startHelper(SCRIPT, first.work, first.transfer);
    const part = await reply<CsvChunkResult>(first.port, first.posted);
    expect(part.ok && part.parts.rowCount).toBe(3);
    reader.release();

    const columns = [{ name: 'a', codes: Uint32Array.from([1, 2, 1, 3]), dictionary: ['', '1', '2', '3'] }];
    const { port1, port2 } = new MessageChannel();
    const posted = new SharedArrayBuffer(4);
    const work: RiskProfileHelperData = { command: 'risk-profile-helper', columns, records: 4, options: {}, port: port2, posted };
    const profiler = startHelper(SCRIPT, work, [port2]);
    expect(profiler.worker).toBe(reader.worker);
    const answer = await reply<{ ok: true; profile: unknown }>(port1, posted);
    expect(answer.ok).toBe(true);
    expect(answer.profile).toEqual(riskProfile(columns, 4, {}));
    profiler.stop();

    const again = csvWork(path, 4, 16);
    const fresh = startHelper(SCRIPT, again.work, again.transfer);
    expect(fresh.worker).not.toBe(profiler.worker);
    const second = await reply<CsvChunkResult>(again.port, again.posted);
    expect(second.ok).toBe(true);
    fresh.stop();
  });
});
