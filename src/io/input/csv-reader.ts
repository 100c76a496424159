import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import { CsvSyntaxError, CsvTokenizer } from './csv-tokenizer.js';
import { sniffDelimiter } from './delimiter.js';
import { detectEncoding, type TextEncoding } from '../../common/job/encoding.js';
import type { ImportedTable, ImportOptions, RejectedRow } from './import-types.js';
import { InputError } from './input-error.js';
import { chunkDecoder } from './text-decoder.js';
import { checkHeader, TableBuilder } from './table-builder.js';
import { describeErrno } from './file-kind.js';

const CHUNK_BYTES = 4 << 20;
const MAX_LISTED_REJECTS = 1000;

class Utf8Invalid extends Error {}

/** Streams a delimited text file into a dictionary-encoded table. */
export function readCsv(path: string, options: ImportOptions): ImportedTable {
  const name = basename(path);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new InputError(`cannot open the file: ${describeErrno((error as NodeJS.ErrnoException).code)}`, name);
  }
  try {
    const total = fstatSync(fd).size;
    const head = new Uint8Array(Math.min(total, 1 << 16));
    readSync(fd, head, 0, head.length, 0);
    const detected = options.encoding ? { encoding: options.encoding, bom: hasBom(head, options.encoding) } : detectEncoding(head);
    try {
      return parse(fd, total, name, detected.encoding, detected.bom, head, options);
    } catch (error) {
      // Auto-detection saw valid UTF-8 at the start only; legacy files often
      // turn out to be Windows-1252 further down.
      if (error instanceof Utf8Invalid && !options.encoding) return parse(fd, total, name, 'windows-1252', false, head, options);
      if (error instanceof Utf8Invalid) throw new InputError(`${error.message}; is the file Windows-1252 or UTF-16?`, name);
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

function parse(
  fd: number,
  total: number,
  name: string,
  encoding: TextEncoding,
  bom: boolean,
  head: Uint8Array,
  options: ImportOptions,
): ImportedTable {
  const decoder = chunkDecoder(encoding);
  const delimiter = options.delimiter ?? sniffDelimiter(sniffText(head, encoding));
  const hash = createHash('sha256');
  const rejected: RejectedRow[] = [];
  let rejectedCount = 0;
  let builder: TableBuilder | undefined;
  const tokenizer = new CsvTokenizer(delimiter, {
    record(fields, count, line) {
      if (!builder) {
        const header = fields.slice(0, count).map((h) => h.trim());
        const problem = checkHeader(header);
        if (problem) throw new InputError(problem, name, line);
        builder = new TableBuilder(header, options.missing);
        return;
      }
      const width = builder.header.length;
      if (count === width) {
        builder.add(fields);
        return;
      }
      if (count === 1 && fields[0] === '') return;
      const reason = `${count} field${count === 1 ? '' : 's'} where the header has ${width}`;
      if (options.onBadRow === 'error') {
        throw new InputError(`${reason} (check quoting and the delimiter ${JSON.stringify(delimiter)})`, name, line);
      }
      rejectedCount++;
      if (rejected.length < MAX_LISTED_REJECTS) rejected.push({ line, reason });
    },
  });
  const chunk = new Uint8Array(CHUNK_BYTES);
  let position = 0;
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, position);
      const bytes = chunk.subarray(0, read);
      hash.update(bytes);
      position += read;
      const final = read === 0 || position >= total;
      let text: string;
      try {
        text = decoder.decode(bytes, !final);
      } catch {
        throw new Utf8Invalid(`invalid UTF-8 in the bytes ${position - read}–${position}`);
      }
      tokenizer.feed(text, final);
      options.onProgress?.(position, total);
      if (final) break;
    }
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw new InputError(error.message, name, error.line, error.column);
    throw error;
  }
  if (!builder) throw new InputError('the file is empty: a header line is expected', name, 1);
  return {
    table: builder.build(),
    format: 'csv',
    encoding,
    bom,
    delimiter,
    sha256: hash.digest('hex'),
    bytes: total,
    rejectedRows: rejected,
    rejectedRowCount: rejectedCount,
  };
}

function sniffText(head: Uint8Array, encoding: TextEncoding): string {
  try {
    return chunkDecoder(encoding).decode(head, true);
  } catch {
    return new TextDecoder('latin1').decode(head);
  }
}
