import { createHash } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { fileChecksum, serveCsvChunk, startCsvChunk, type CsvChunkRequest } from '../../src/io/input/csv-chunk.js';
import { identityOfOpenFile } from '../../src/io/file-identity.js';
import { stopWarmWorkers } from '../../src/io/worker-script.js';

/*
 * A file read on two threads has its checksum (SHA-256 of every byte, in order) computed by the
 * thread that read the second part, once that part is posted: the first thread then neither hashes
 * its part nor reads the second part again. The first thread takes the checksum when it wants it,
 * and computes it itself whenever the other thread has none to give.
 */
const dir = mkdtempSync(join(tmpdir(), 'custos-chunk-checksum-'));

function file(name: string, lines: readonly string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

/** The file's identity as the first thread takes it from the file it has open. */
function identity(path: string): string {
  const fd = openSync(path, 'r');
  try {
    return identityOfOpenFile(fd);
  } finally {
    closeSync(fd);
  }
}

function request(path: string, onBadRow: 'error' | 'skip' = 'skip', opened: string = identity(path)): { request: CsvChunkRequest; port: MessagePort; flag: Int32Array } {
  const { port1, port2 } = new MessageChannel();
  const posted = new SharedArrayBuffer(4);
  const start = 1 + readFileSync(path).indexOf(0x0a);
  const data: CsvChunkRequest = { command: 'csv-chunk', path, start, end: statSync(path).size, encoding: 'utf-8', delimiter: ';', header: ['id', 'town'], missing: [''], onBadRow, port: port2, posted, waitAfter: false, identity: opened };
  return { request: data, port: port1 as unknown as MessagePort, flag: new Int32Array(posted) };
}

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('the second part\'s thread computes the file\'s checksum', () => {
  it('posts the part, then the SHA-256 of the whole file, flagging each', () => {
    const path = file('ok.csv', ['id;town', ...Array.from({ length: 500 }, (_, i) => `${i};t${i % 7}`)]);
    const { request: data, port, flag } = request(path);
    serveCsvChunk(data);
    expect(Atomics.load(flag, 0)).toBe(2);
    const part = receiveMessageOnPort(port as never)?.message as { ok: boolean; parts: { codes: Uint32Array[] } };
    expect(part.ok).toBe(true);
    expect(part.parts.codes[0]!.length).toBe(500);
    expect((receiveMessageOnPort(port as never)?.message as { sha256: string }).sha256).toBe(sha256(path));
    expect(receiveMessageOnPort(port as never)).toBeUndefined();
  });

  it('reads and hashes only the file the first thread opened: a file changed or replaced since gives neither part nor checksum', () => {
    const path = file('changed.csv', ['id;town', ...Array.from({ length: 50 }, (_, i) => `${i};t${i % 3}`)]);
    const opened = identity(path);
    // Written again (a new modification time), then another file under the same path.
    utimesSync(path, new Date(2020, 0, 1), new Date(2020, 0, 1));
    for (const after of [path, file('changed.csv', ['id;town', '1;x'])]) {
      const { request: data, port, flag } = request(after, 'skip', opened);
      serveCsvChunk(data);
      expect(Atomics.load(flag, 0)).toBe(1);
      const part = receiveMessageOnPort(port as never)?.message as { ok: boolean; problem?: string; message?: string };
      expect(part.ok).toBe(false);
      expect(part.problem).toBe('other');
      expect(part.message).toMatch(/changed/);
      expect(receiveMessageOnPort(port as never)).toBeUndefined();
    }
    // The checksum alone, of a file whose identity is not the one asked for, is refused; of the same file, given.
    expect(() => fileChecksum(path, statSync(path).size, opened)).toThrow(/changed/);
    expect(fileChecksum(path, statSync(path).size, identity(path))).toBe(sha256(path));
  });

  it('a part that met a problem is posted alone: no checksum follows', () => {
    const path = file('bad.csv', ['id;town', '1;a', '2;b;extra']);
    const { request: data, port, flag } = request(path, 'error');
    serveCsvChunk(data);
    expect(Atomics.load(flag, 0)).toBe(1);
    expect((receiveMessageOnPort(port as never)?.message as { ok: boolean }).ok).toBe(false);
    expect(receiveMessageOnPort(port as never)).toBeUndefined();
  });
});

/** A stand-in for the helpers' script: posts a read part, then what `after` says. */
function fakeScript(after: string): { source: string } {
  return {
    source: `
      const { workerData } = require('node:worker_threads');
      const flag = new Int32Array(workerData.posted);
      workerData.port.postMessage({ ok: true, parts: { codes: [], dictionaries: [], lines: [] }, rejected: [], rejectedCount: 0 });
      Atomics.store(flag, 0, 1); Atomics.notify(flag, 0);
      ${after}
    `,
  };
}

const post = (message: string): string => `workerData.port.postMessage(${message}); Atomics.store(flag, 0, 2); Atomics.notify(flag, 0);`;

describe('the first thread takes the checksum, or learns there is none', () => {
  const base = { path: '/nonexistent', start: 0, end: 0, encoding: 'utf-8', delimiter: ';', header: ['a'], missing: [''], onBadRow: 'skip', waitAfter: false, identity: '' } as const;

  it('waits for the checksum the thread posts after its part', () => {
    // Posted a moment after the part: the first thread waits for it.
    const pending = startCsvChunk(fakeScript(`setTimeout(() => { ${post(`{ sha256: 'ab12' }`)} }, 300);`), base);
    try {
      expect(pending.result(10_000)?.ok).toBe(true);
      expect(pending.checksum(10_000)).toBe('ab12');
    } finally {
      pending.stop();
    }
  });

  it('none when the thread could not compute it, or ended without posting it, or its part failed', () => {
    const none = startCsvChunk(fakeScript(post('{ sha256: undefined }')), base);
    expect(none.result(10_000)?.ok).toBe(true);
    expect(none.checksum(10_000)).toBeUndefined();
    const ended = startCsvChunk(fakeScript('process.exit(0);'), base);
    expect(ended.result(10_000)?.ok).toBe(true);
    const t0 = Date.now();
    expect(ended.checksum(600)).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(5_000);
    const failed = startCsvChunk({ source: `
      const { workerData } = require('node:worker_threads');
      workerData.port.postMessage({ ok: false, problem: 'other', message: 'no' });
      const flag = new Int32Array(workerData.posted); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0);
    ` }, base);
    expect(failed.result(10_000)?.ok).toBe(false);
    const t1 = Date.now();
    expect(failed.checksum(10_000)).toBeUndefined();
    expect(Date.now() - t1).toBeLessThan(1_000);
    stopWarmWorkers();
  });
});
