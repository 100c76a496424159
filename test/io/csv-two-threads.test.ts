import { closeSync, mkdtempSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { CsvChunkRequest, CsvChunkResult } from '../../src/io/input/csv-chunk.js';
import { identityOfOpenFile } from '../../src/io/file-identity.js';
import { HELPER_START_BYTES } from '../../src/io/input/csv-reader.js';
import { prestartWorker, spawnWorker, stopWarmWorkers } from '../../src/io/worker-script.js';
import type { ImportedTable, ImportOptions } from '../../src/io/input/import-types.js';
import { readTable } from '../../src/io/input/read-table.js';

/*
 * A large delimited file is read on two threads (the second part from a line break near the middle)
 * when the reader is given a helper script. The table must be exactly the one a single thread reads:
 * the same dictionaries in the same order, the same codes, checksum, rejected rows and line numbers,
 * the same errors at the same places, whatever lies at the cut.
 */
/** The helpers' own script, which a run's job worker starts its helpers from (the job worker serves them too). */
const HELPER = pathToFileURL(resolve('dist/cli/helper-worker.mjs'));
const JOB_WORKER = pathToFileURL(resolve('dist/cli/job-worker.mjs'));
const dir = mkdtempSync(join(tmpdir(), 'custos-two-threads-'));

/** A deterministic census-like file of about `bytes` bytes; `middle` is written where the reader cuts it in two. */
function bigFile(name: string, options: { bytes?: number; middle?: string; eol?: string; bom?: boolean; tail?: string } = {}): string {
  const eol = options.eol ?? '\n';
  let state = 7;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const towns = ['Aarau', 'Bern', 'Chur', '"Sion, VS"', 'Zug', 'Genève', 'Lugano', '"quoted ""name"""'];
  const lines = ['id;age;town;note'];
  let size = 0;
  const target = options.bytes ?? 17 << 20;
  let placed = options.middle === undefined;
  for (let r = 0; size < target; r++) {
    // Just before where the reader cuts the file (past the middle by HELPER_START_BYTES / 2).
    if (!placed && size >= (target + HELPER_START_BYTES) / 2 - 200) {
      lines.push(options.middle!);
      placed = true;
    }
    const line = `${r};${18 + next(70)};${towns[next(towns.length)]};${next(5) === 0 ? '' : `n${next(100000)}`}`;
    lines.push(line);
    size += line.length + eol.length;
  }
  if (options.tail) lines.push(options.tail);
  const path = join(dir, name);
  writeFileSync(path, Buffer.concat([options.bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(lines.join(eol) + eol, 'latin1')]));
  return path;
}

function bothWays(path: string, options: Partial<ImportOptions> = {}): [ImportedTable, ImportedTable] {
  const base: ImportOptions = { missing: [''], onBadRow: 'skip', ...options };
  return [readTable(path, base), readTable(path, { ...base, helperScript: HELPER })];
}

function expectSame(one: ImportedTable, two: ImportedTable): void {
  expect(two.sha256).toBe(one.sha256);
  expect(two.encoding).toBe(one.encoding);
  expect(two.table.rowCount).toBe(one.table.rowCount);
  expect(two.rejectedRows).toEqual(one.rejectedRows);
  expect(two.rejectedRowCount).toBe(one.rejectedRowCount);
  one.table.columns.forEach((c, j) => {
    const d = two.table.columns[j]!;
    expect(d.name).toBe(c.name);
    expect(d.type).toBe(c.type);
    expect(d.dictionary).toEqual(c.dictionary);
    expect(d.missing).toBe(c.missing);
    expect(d.missing).toBe(d.codes.filter((code) => code === 0).length);
    expect(Buffer.from(d.codes.buffer, d.codes.byteOffset, d.codes.byteLength).equals(Buffer.from(c.codes.buffer, c.codes.byteOffset, c.codes.byteLength))).toBe(true);
  });
}

describe('reading a large CSV on two threads gives the one-thread table', () => {
  it('plain rows, quoted fields, missing values; rejected rows on both sides of the cut keep their lines', () => {
    const path = bigFile('plain.csv', { middle: '1;2;3', tail: 'too;many;fields;here;x' });
    const [one, two] = bothWays(path);
    expect(one.rejectedRowCount).toBe(2);
    expectSame(one, two);
    // The job worker's own script serves the second part too (the single-file executable's one script).
    expectSame(one, readTable(path, { missing: [''], onBadRow: 'skip', helperScript: JOB_WORKER }));
  }, 60_000);

  it('a quoted field holding line breaks where the file is cut: the second thread\'s part is not used, one thread reads on', () => {
    // Line breaks inside quotes around the middle: the cut may land inside the field.
    const field = `"${Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n')}"`;
    const path = bigFile('newlines.csv', { middle: `x;40;${field};end` });
    const [one, two] = bothWays(path);
    expect(one.table.columns[2]!.dictionary.some((v) => v.includes('\n'))).toBe(true);
    expectSame(one, two);
  }, 60_000);

  it('CRLF line ends and a byte-order mark', () => {
    const [one, two] = bothWays(bigFile('crlf.csv', { eol: '\r\n', bom: true }));
    expect(one.bom).toBe(true);
    expectSame(one, two);
  }, 60_000);

  it('every record begins with U+FEFF: the record the second thread starts at keeps it (a byte order mark only starts a file)', () => {
    const lines = ['id;age'];
    for (let r = 0, size = 0; size < 17 << 20; r++) {
      const line = `\ufeff${r % 1000};${r % 90}`;
      lines.push(line);
      size += line.length + 3;
    }
    const path = join(dir, 'feff.csv');
    writeFileSync(path, `${lines.join('\n')}\n`, 'utf8');
    const [one, two] = bothWays(path);
    expect(one.table.columns[0]!.dictionary.filter((v) => v !== '').every((v) => v.startsWith('\ufeff'))).toBe(true);
    expectSame(one, two);
  }, 60_000);

  it('bytes that are not UTF-8 in the second part: the file is read as Windows-1252 either way', () => {
    // é in Latin-1 (0xE9) alone is invalid UTF-8.
    const path = bigFile('latin1.csv', { middle: '1;2;Genf \u00e9;x', tail: '2;3;caf\u00e9;y' });
    const [one, two] = bothWays(path);
    expect(one.encoding).toBe('windows-1252');
    expectSame(one, two);
  }, 60_000);

  it('a malformed row in the second part stops the import at the same line with the same message', () => {
    const path = bigFile('bad.csv', { tail: 'a;b' });
    const errorOf = (options: ImportOptions): string => {
      try {
        readTable(path, options);
      } catch (error) {
        return `${(error as Error).message} @ ${JSON.stringify(error)}`;
      }
      return 'no error';
    };
    const one = errorOf({ missing: [''], onBadRow: 'error' });
    expect(one).toMatch(/2 fields where the header has 4/);
    expect(errorOf({ missing: [''], onBadRow: 'error', helperScript: HELPER })).toBe(one);
  }, 60_000);

  it('with keepHelperWarm the thread that read the second part waits for the run\'s next helper: the next prestart takes it, and it serves', async () => {
    const path = bigFile('kept.csv');
    const one = readTable(path, { missing: [''], onBadRow: 'skip' });
    for (const [script, keepHelperWarm] of [[HELPER, true], [HELPER, false], [JOB_WORKER, true]] as const) {
      {
        try {
          expectSame(one, readTable(path, { missing: [''], onBadRow: 'skip', helperScript: script, keepHelperWarm }));
          // A thread started now has a higher id than any started before: the reading thread's is lower.
          const probe = new Worker('1', { eval: true });
          const probeId = probe.threadId;
          await probe.terminate();
          prestartWorker(script, 'next');
          const { port1, port2 } = new MessageChannel();
          const posted = new SharedArrayBuffer(4);
          const start = 1 + readFileSync(path).indexOf(0x0a);
          const fd = openSync(path, 'r');
          const identity = identityOfOpenFile(fd);
          closeSync(fd);
          const request: CsvChunkRequest = { command: 'csv-chunk', path, start, end: statSync(path).size, encoding: 'utf-8', delimiter: ';', header: ['id', 'age', 'town', 'note'], missing: [''], onBadRow: 'skip', port: port2, posted, waitAfter: false, identity };
          const next = spawnWorker(script, { workerData: request, transferList: [port2] }, 'next');
          if (keepHelperWarm) expect(next.threadId).toBeLessThan(probeId);
          else expect(next.threadId).toBeGreaterThan(probeId);
          const flag = new Int32Array(posted);
          for (let i = 0; i < 400 && Atomics.load(flag, 0) === 0; i++) await new Promise((r) => setTimeout(r, 25));
          const result = receiveMessageOnPort(port1)?.message as CsvChunkResult | undefined;
          expect(result?.ok).toBe(true);
          expect(result?.ok && result.parts.codes[0]!.length).toBe(one.table.rowCount);
          await next.terminate();
        } finally {
          stopWarmWorkers();
        }
      }
    }
    // A thread whose part met a problem is not kept: the next helper gets a thread of its own.
    const bad = bigFile('kept-bad.csv', { tail: 'a;b' });
    try {
      expect(() => readTable(bad, { missing: [''], onBadRow: 'error', helperScript: HELPER, keepHelperWarm: true })).toThrow(/2 fields where the header has 4/);
      const probe = new Worker('1', { eval: true });
      const probeId = probe.threadId;
      await probe.terminate();
      prestartWorker(HELPER, 'next');
      const next = spawnWorker(HELPER, { workerData: { command: 'warm' } }, 'next');
      expect(next.threadId).toBeGreaterThan(probeId);
      await next.terminate();
    } finally {
      stopWarmWorkers();
    }
  }, 60_000);
});
