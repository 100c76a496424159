import { closeSync, openSync, readSync } from 'node:fs';
import { sha256OfOpenFile } from '../file-checksum.js';
import { identityOfOpenFile } from '../file-identity.js';
import { MessageChannel, receiveMessageOnPort, type MessagePort, type Worker } from 'node:worker_threads';
import type { TextEncoding } from '../../common/job/encoding.js';
import { keepWorkerWarm, spawnWorker, type WorkerScript } from '../worker-script.js';
import { BadRowError, RecordRules } from './csv-records.js';
import { CsvSyntaxError } from './csv-tokenizer.js';
import { NotText, recordReader, withTextFallback } from './csv-record-reader.js';
import type { RejectedRow } from './import-types.js';
import { TableBuilder, type BuiltParts } from './table-builder.js';

const CHUNK_BYTES = 4 << 20;

/** The second thread's part of a delimited file: the records from byte `start` to the end (the first thread read the header). */
export interface CsvChunkRequest {
  readonly command: 'csv-chunk';
  readonly path: string;
  readonly start: number;
  readonly end: number;
  readonly encoding: TextEncoding;
  readonly delimiter: string;
  readonly header: readonly string[];
  readonly missing: readonly string[];
  readonly onBadRow: 'error' | 'skip';
  readonly port: MessagePort;
  /** Set to 1 once the result is posted and to 2 once the file's checksum is, so the first thread can wait without an event loop. */
  readonly posted: SharedArrayBuffer;
  /** Once the result is posted, the thread waits for other work (keepWorkerWarm) instead of ending. */
  readonly waitAfter: boolean;
  /**
   * The file as the first thread opened it (identityOfOpenFile): this thread opens it by its path again,
   * and reads and hashes only that version. Another file under the path, or this one written to since,
   * gives neither part nor checksum: the first thread then reads on alone and hashes the file it has open.
   */
  readonly identity: string;
}

/** Whether the open file is the version `identity` (identityOfOpenFile) names. */
function isFile(fd: number, identity: string): boolean {
  return identityOfOpenFile(fd) === identity;
}

/** The file changed, or another file took its path, while the parts were read. */
class NotTheFile extends Error {
  constructor() {
    super('the file changed, or another file took its path, while it was read');
  }
}

/** Lines are the part's own, 1 for its first line: the first thread knows where the part starts. */
export type CsvChunkResult =
  | { readonly ok: true; readonly parts: BuiltParts; readonly rejected: readonly RejectedRow[]; readonly rejectedCount: number }
  | { readonly ok: false; readonly problem: 'syntax' | 'bad-row' | 'utf8'; readonly message: string; readonly line: number; readonly column?: number }
  | { readonly ok: false; readonly problem: 'other'; readonly message: string };

/** The file's checksum as the thread computed it; undefined when it could not read the file. */
export interface CsvChunkChecksum {
  readonly sha256: string | undefined;
}

/**
 * The worker's side: read the part, post what it holds, flag it; then, when the part was read,
 * the SHA-256 of the whole file (bytes 0 to `end`), posted and flagged in turn. The checksum covers
 * the file in order, so one thread computes all of it: this one, which is otherwise idle once its
 * part is posted, while the first thread still reads its own part and then joins the two.
 */
export function serveCsvChunk(request: CsvChunkRequest): void {
  let result: CsvChunkResult;
  try {
    result = readPart(request);
  } catch (error) {
    if (error instanceof CsvSyntaxError) result = { ok: false, problem: 'syntax', message: error.message, line: error.line, column: error.column };
    else if (error instanceof BadRowError) result = { ok: false, problem: 'bad-row', message: error.message, line: error.line };
    else result = { ok: false, problem: 'other', message: error instanceof Error ? error.message : String(error) };
  }
  request.port.postMessage(result, result.ok ? result.parts.codes.map((c) => c.buffer as ArrayBuffer) : []);
  const flag = new Int32Array(request.posted);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
  if (!result.ok) return;
  let sha256: string | undefined;
  try {
    sha256 = fileChecksum(request.path, request.end, request.identity);
  } catch {
    // The first thread computes it itself, and meets the problem as reading alone would.
    sha256 = undefined;
  }
  request.port.postMessage({ sha256 } satisfies CsvChunkChecksum);
  Atomics.store(flag, 0, 2);
  Atomics.notify(flag, 0);
}

/** The SHA-256 (hex) of a file's bytes 0 to `end`, when the path names the file `identity` describes from before to after. */
export function fileChecksum(path: string, end: number, identity: string): string {
  const fd = openSync(path, 'r');
  try {
    if (!isFile(fd, identity)) throw new NotTheFile();
    const sha256 = sha256OfOpenFile(fd, end);
    if (!isFile(fd, identity)) throw new NotTheFile();
    return sha256;
  } finally {
    closeSync(fd);
  }
}

class PartNotText extends Error {
  constructor(readonly line: number) {
    super('invalid UTF-8');
  }
}

function readPart(request: CsvChunkRequest): CsvChunkResult {
  return withTextFallback((textOnly) => readPartWith(request, textOnly));
}

function readPartWith(request: CsvChunkRequest, textOnly: boolean): CsvChunkResult {
  const builder = new TableBuilder(request.header, request.missing);
  const rules = new RecordRules(builder, request.delimiter, request.onBadRow);
  // The part starts after a line break inside the file: a U+FEFF there begins a value.
  const reader = recordReader(request.encoding, true, request.delimiter, { builder, rules }, textOnly);
  const fd = openSync(request.path, 'r');
  try {
    if (!isFile(fd, request.identity)) throw new NotTheFile();
    const chunk = new Uint8Array(CHUNK_BYTES);
    for (let position = request.start; ; ) {
      const read = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, request.end - position), position);
      position += read;
      const final = read === 0 || position >= request.end;
      try {
        reader.feed(chunk.subarray(0, read), final);
      } catch (error) {
        if (error instanceof NotText) throw new PartNotText(reader.nextLine);
        throw error;
      }
      if (final) break;
    }
    if (!isFile(fd, request.identity)) throw new NotTheFile();
  } catch (error) {
    if (error instanceof PartNotText) return { ok: false, problem: 'utf8', message: error.message, line: error.line };
    throw error;
  } finally {
    closeSync(fd);
  }
  return { ok: true, parts: builder.parts(), rejected: rules.rejected, rejectedCount: rules.rejectedCount };
}

/** A part being read by another thread. */
export interface PendingChunk {
  /** Blocks until the part is read (the caller is synchronous); undefined when it took longer than `timeoutMs` or the thread died. */
  result(timeoutMs: number): CsvChunkResult | undefined;
  /**
   * After a part read (result() ok): blocks until the thread has the whole file's SHA-256, then is done
   * with the thread; undefined when it could not compute it, took longer than `timeoutMs` or died.
   */
  checksum(timeoutMs: number): string | undefined;
  stop(): void;
}

export function startCsvChunk(script: WorkerScript, request: Omit<CsvChunkRequest, 'command' | 'port' | 'posted'>): PendingChunk {
  const { port1, port2 } = new MessageChannel();
  const posted = new SharedArrayBuffer(4);
  const data: CsvChunkRequest = { ...request, command: 'csv-chunk', port: port2, posted };
  const worker: Worker = spawnWorker(script, { workerData: data, transferList: [port2] });
  // The reading thread must not keep the process alive once the part is no longer wanted.
  worker.unref();
  const flag = new Int32Array(posted);
  // Waits in short steps until the flag reaches `state`: a thread that died (out of memory) never sets it.
  const waitFor = (state: number, timeoutMs: number): void => {
    const until = Date.now() + timeoutMs;
    for (let now = Atomics.load(flag, 0); now < state && Date.now() < until; now = Atomics.load(flag, 0)) Atomics.wait(flag, 0, now, 50);
  };
  // Once checksum() has its answer (or result() a failed part) the thread is done with: ended, or kept for the next helper (not ended by stop()).
  let done = false;
  const finish = (keep: boolean): void => {
    port1.close();
    done = true;
    // A thread that read its part has loaded the helpers' script: the next helper may take it (one
    // that met a problem ends, whatever the problem was).
    if (keep && request.waitAfter) keepWorkerWarm(script, worker);
    else void worker.terminate();
  };
  let read = false;
  return {
    result(timeoutMs) {
      waitFor(1, timeoutMs);
      const message = receiveMessageOnPort(port1)?.message as CsvChunkResult | undefined;
      read = message?.ok === true;
      if (!read) finish(false);
      return message;
    },
    checksum(timeoutMs) {
      if (!read || done) return undefined;
      waitFor(2, timeoutMs);
      const message = receiveMessageOnPort(port1)?.message as CsvChunkChecksum | undefined;
      const sha256 = typeof message?.sha256 === 'string' ? message.sha256 : undefined;
      finish(sha256 !== undefined);
      return sha256;
    },
    stop() {
      if (done) return;
      done = true;
      port1.close();
      void worker.terminate();
    },
  };
}
