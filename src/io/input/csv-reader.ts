import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { CsvSyntaxError, CsvTokenizer } from './csv-tokenizer.js';
import { sniffDelimiter } from './delimiter.js';
import { detectEncoding, type TextEncoding } from '../../common/job/encoding.js';
import type { ImportedTable, ImportOptions, RejectedRow } from './import-types.js';
import type { Table } from '../../common/table/table.js';
import { BadRowError, RecordRules } from './csv-records.js';
import { startCsvChunk, type PendingChunk } from './csv-chunk.js';
import { sha256OfOpenFile } from '../file-checksum.js';
import { identityOfOpenFile } from '../file-identity.js';
import { InputError } from './input-error.js';
import { chunkDecoder } from './text-decoder.js';
import { NotText, recordReader, withTextFallback } from './csv-record-reader.js';
import { nameColumns, TableBuilder, type BuiltParts, type RenamedColumn } from './table-builder.js';
import { describeErrno } from './file-kind.js';
import { locateInvalidUtf8 } from './utf8-location.js';

const CHUNK_BYTES = 4 << 20;

/** Bytes the file's Unicode encoding (UTF-8 or UTF-16) cannot decode. */
class TextInvalid extends Error {
  constructor(
    message: string,
    readonly encoding: TextEncoding,
  ) {
    super(message);
  }
}

/** Streams a delimited text file into a dictionary-encoded table. */
export function readCsv(path: string, options: ImportOptions): ImportedTable {
  const name = basename(path);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`cannot open the file: ${describeErrno(code)}`, name, undefined, undefined, code === 'ENOENT' ? { advice: 'path' } : {});
  }
  try {
    const total = fstatSync(fd).size;
    const head = new Uint8Array(Math.min(total, 1 << 16));
    readSync(fd, head, 0, head.length, 0);
    const detected = options.encoding ? { encoding: options.encoding, bom: hasBom(head, options.encoding) } : detectEncoding(head);
    try {
      return parse(fd, path, total, name, detected.encoding, detected.bom, head, options);
    } catch (error) {
      // Auto-detection saw valid UTF-8 at the start only; legacy files often
      // turn out to be Windows-1252 further down.
      // A UTF-8 byte order mark declares the encoding as much as the job would: no guess then.
      if (error instanceof TextInvalid && error.encoding === 'utf-8' && !options.encoding && !detected.bom) return parse(fd, path, total, name, 'windows-1252', false, head, options);
      if (error instanceof TextInvalid && error.encoding === 'utf-8') {
        // Named where an editor shows it: found again from the start (an error path only).
        const at = locateInvalidUtf8(fd, total, detected.bom ? 3 : 0);
        // The position in the line is a character count, not a field: said in words, as `file:line:column` names a field elsewhere.
        const what = at ? `the byte 0x${at.byte.toString(16).toUpperCase().padStart(2, '0')} (character ${at.column} of the line) is not UTF-8` : error.message;
        throw new InputError(`${what}; is the file Windows-1252 or UTF-16?`, name, at?.line, undefined, { advice: 'reading-options' });
      }
      if (error instanceof TextInvalid) throw new InputError(`${error.message} (an odd number of bytes, or half of a character pair); the file is damaged or is not UTF-16`, name, undefined, undefined, { advice: 'reading-options' });
      throw error;
    }
  } finally {
    closeSync(fd);
  }
}

function hasBom(head: Uint8Array, encoding: TextEncoding): boolean {
  if (encoding === 'utf-8') return head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  if (encoding === 'utf-16le') return head[0] === 0xff && head[1] === 0xfe;
  if (encoding === 'utf-16be') return head[0] === 0xfe && head[1] === 0xff;
  return false;
}

function parse(fd: number, path: string, total: number, name: string, encoding: TextEncoding, bom: boolean, head: Uint8Array, options: ImportOptions): ImportedTable {
  return withTextFallback((textOnly) => parseWith(fd, path, total, name, encoding, bom, head, options, textOnly));
}

function parseWith(
  fd: number,
  path: string,
  total: number,
  name: string,
  encoding: TextEncoding,
  bom: boolean,
  head: Uint8Array,
  options: ImportOptions,
  textOnly: boolean,
): ImportedTable {
  const delimiter = options.delimiter ?? sniffDelimiter(sniffText(head, encoding));
  const hash = createHash('sha256');
  let checksumFrom: PendingChunk | undefined;
  let checksumPatience = 0;
  let builder: TableBuilder | undefined;
  let rules: RecordRules | undefined;
  let renamed: readonly RenamedColumn[] = [];
  const reader = recordReader(
    encoding,
    false,
    delimiter,
    (header) => {
      const named = nameColumns(header);
      renamed = named.renamed;
      builder = new TableBuilder(named.names, options.missing);
      rules = new RecordRules(builder, delimiter, options.onBadRow);
      return { builder, rules };
    },
    textOnly,
  );
  // A large file in a byte-per-newline encoding is cut in two at a line break near its middle; a
  // second thread reads the second part while this one reads the first. This thread starts reading
  // at once and the other only once it has loaded its script, and the other then computes the
  // file's checksum while this one builds the table: the cut lies past the middle by
  // HELPER_START_BYTES, so that both are done at about the same time.
  const split = options.helperScript && total >= PARALLEL_FROM_BYTES && encoding !== 'utf-16le' && encoding !== 'utf-16be' ? lineBreakNear(fd, Math.min(total - 1, (total + HELPER_START_BYTES) >> 1), total) : undefined;
  const startSecond = (header: readonly string[]): PendingChunk =>
    startCsvChunk(options.helperScript!, { path, start: split!, end: total, encoding, delimiter, header, missing: options.missing, onBadRow: options.onBadRow, waitAfter: options.keepHelperWarm === true, identity: identityOfOpenFile(fd) });
  // The thread takes a moment to start: it is started before this one reads, from the header in the first bytes.
  const early = split === undefined ? undefined : headerIn(head, encoding, delimiter);
  let second: PendingChunk | undefined = early ? startSecond(early) : undefined;
  const chunk = new Uint8Array(CHUNK_BYTES);
  let position = 0;
  const started = Date.now();
  // Read in two parts, the file's checksum is the other thread's to compute (csv-chunk.ts): this one
  // reads its part without it, and computes it only should it read the file alone after all.
  const hashing = split === undefined;
  const feedUntil = (end: number, last: boolean): void => {
    for (;;) {
      const read = readSync(fd, chunk, 0, Math.min(CHUNK_BYTES, end - position), position);
      const bytes = chunk.subarray(0, read);
      if (hashing) hash.update(bytes);
      position += read;
      const final = last && (read === 0 || position >= end);
      try {
        reader.feed(bytes, final);
      } catch (error) {
        if (error instanceof NotText) throw new TextInvalid(`invalid ${encoding === 'utf-8' ? 'UTF-8' : 'UTF-16'} in the bytes ${position - read}–${position}`, encoding);
        throw error;
      }
      options.onProgress?.(position, total);
      if (!second && split !== undefined && builder) second = startSecond(builder.header);
      if (final || read === 0 || position >= end) break;
    }
  };
  try {
    try {
      if (split === undefined) feedUntil(total, true);
      else {
        feedUntil(split, false);
        // The second part is used only if the first ended exactly at a record's end there: a line
        // break inside a quoted field is not a record boundary, and then one thread reads on.
        // A thread that died (out of memory) never answers: waiting ends well after it should have.
        const patience = Math.max(30_000, 10 * (Date.now() - started));
        const joined = second && reader.atRecordStart ? joinSecondPart(second, reader.nextLine, patience) : undefined;
        if (joined) {
          builder!.append(joined.parts);
          rules!.absorb(joined.rejected, joined.rejectedCount);
          options.onProgress?.(total, total);
          checksumFrom = second;
          checksumPatience = patience;
        } else {
          // Stopped now, not in finally: its thread would read on beside this one for nothing.
          second?.stop();
          feedUntil(total, true);
        }
      }
    } finally {
      // The thread that read the second part still computes the checksum, taken below.
      if (second !== checksumFrom) second?.stop();
    }
  } catch (error) {
    checksumFrom?.stop();
    // A quote or a record of the wrong length: a delimiter or an encoding other than the file's can be the cause.
    if (error instanceof CsvSyntaxError) throw new InputError(error.message, name, error.line, error.column, { advice: 'reading-options' });
    if (error instanceof BadRowError) throw new InputError(error.message, name, error.line, undefined, { advice: 'reading-options' });
    throw error;
  }
  if (!builder || !rules) throw new InputError('the file is empty: a header line is expected', name, 1);
  let table: Table;
  let sha256: string | undefined;
  try {
    // The table is built while the other thread computes the checksum.
    table = builder.build();
    if (checksumFrom) sha256 = checksumFrom.checksum(checksumPatience);
  } finally {
    checksumFrom?.stop();
  }
  // The whole file again, here: only when this thread read it alone after all, or the other could not.
  if (split !== undefined) sha256 ??= sha256OfOpenFile(fd, total);
  return {
    table,
    firstLines: builder.firstLines(),
    format: 'csv',
    encoding,
    bom,
    delimiter,
    sha256: sha256 ?? hash.digest('hex'),
    bytes: total,
    rejectedRows: rules.rejected,
    rejectedRowCount: rules.rejectedCount,
    ...(renamed.length > 0 ? { renamedColumns: renamed } : {}),
  };
}

/** The header's names (as nameColumns makes them) from the first record of the file's first bytes, when they hold all of it. */
function headerIn(head: Uint8Array, encoding: TextEncoding, delimiter: string): string[] | undefined {
  let header: string[] | undefined;
  try {
    const tokenizer = new CsvTokenizer(delimiter, {
      record(fields, count) {
        header ??= nameColumns(fields.slice(0, count)).names;
      },
    });
    tokenizer.feed(chunkDecoder(encoding).decode(head, true), false);
  } catch {
    return undefined;
  }
  return header;
}

/** Files below this are read on one thread: a second would cost more to start than it saves. */
const PARALLEL_FROM_BYTES = 16 << 20;
/**
 * How much more of the file this thread reads than the other: the other starts about 0.1 s later
 * and, after its part, computes the checksum (0.1 s for the 1M-row census's 87 MB), while this one
 * builds the table (0.05 s). Measured on that file, 2 cores, profiled: with 10 MB this thread then
 * waited 12–50 ms for the checksum in every run, with 13–16 MB seldom; the table and checksum were
 * ready some 25 ms sooner.
 */
export const HELPER_START_BYTES = 14 << 20;

/** The offset just after the first line break at or after `from`, or undefined when there is none before the end. */
function lineBreakNear(fd: number, from: number, total: number): number | undefined {
  const window = new Uint8Array(1 << 16);
  for (let at = from; at < total; at += window.length) {
    const read = readSync(fd, window, 0, Math.min(window.length, total - at), at);
    const k = window.subarray(0, read).indexOf(0x0a);
    if (k >= 0) return at + k + 1 < total ? at + k + 1 : undefined;
  }
  return undefined;
}

/**
 * Takes the second part's records, with their lines made the file's. Undefined when the other thread
 * found a problem or did not answer: this thread then reads on by itself, so a problem is reported
 * exactly as one thread reading the file reports it.
 */
function joinSecondPart(second: PendingChunk, firstLine: number, patienceMs: number): { parts: BuiltParts; rejected: readonly RejectedRow[]; rejectedCount: number } | undefined {
  const result = second.result(patienceMs);
  if (!result?.ok) return undefined;
  const lines = result.parts.lines.map((column) => column.map((line) => (line === 0 ? 0 : firstLine + line - 1)));
  return { parts: { ...result.parts, lines }, rejected: result.rejected.map((r) => ({ ...r, line: firstLine + r.line - 1 })), rejectedCount: result.rejectedCount };
}

function sniffText(head: Uint8Array, encoding: TextEncoding): string {
  try {
    return chunkDecoder(encoding).decode(head, true);
  } catch {
    return new TextDecoder('latin1').decode(head);
  }
}
