import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { InputError } from './input-error.js';

/** Plain words for the errno codes a user can act on (reading or writing); anything else is named as it is. */
export function describeErrno(code: string | undefined, action: 'read' | 'write' = 'read'): string {
  switch (code) {
    case 'ENOENT':
      return action === 'read' ? 'the file does not exist (or a link points nowhere)' : 'a folder on the path does not exist (or a link points nowhere)';
    case 'EACCES':
    case 'EPERM':
      return action === 'read' ? 'permission denied: the file cannot be read with your rights' : 'permission denied: you may not write into this folder';
    case 'EISDIR':
      return 'it is a folder, not a file';
    case 'ELOOP':
      return 'a symbolic link loops';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    case 'EMFILE':
    case 'ENFILE':
      return 'too many open files';
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is exceeded';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a folder';
    case 'EEXIST':
      return 'it already exists';
    default:
      return `it cannot be ${action === 'read' ? 'read' : 'written'} (${code ?? 'unknown error'})`;
  }
}

/**
 * Refuses, before opening it, anything that is not a regular file: a folder, a
 * FIFO (reading would block every request until someone writes), a device or
 * a socket.
 */
export function checkRegularFile(path: string): void {
  const name = basename(path);
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(describeErrno(code), name, undefined, undefined, code === 'ENOENT' || code === 'ENOTDIR' ? { advice: 'path' } : {});
  }
  if (stat.isDirectory()) throw new InputError('it is a folder, not a file; choose a data file inside it', name);
  if (stat.isFIFO()) throw new InputError('it is a named pipe (FIFO), not a file; Custos reads regular files only', name);
  if (stat.isCharacterDevice() || stat.isBlockDevice()) throw new InputError('it is a device, not a file; Custos reads regular files only', name);
  if (stat.isSocket()) throw new InputError('it is a socket, not a file; Custos reads regular files only', name);
  if (!stat.isFile()) throw new InputError('it is not a regular file', name);
}

const ascii = (bytes: Uint8Array, from: number, to: number): string => String.fromCharCode(...bytes.subarray(from, to));

/** A SAS format catalog's magic number: a data set's but for byte 15 (0x63 instead of 0x60). */
const SAS7BCAT_MAGIC = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xc2, 0xea, 0x81, 0x63, 0xb3, 0x14, 0x11, 0xcf, 0xbd, 0x92, 0x08, 0x00, 0x09, 0xc7, 0x31, 0x8c, 0x18, 0x1f, 0x10, 0x11];

/**
 * What a file that is not delimited text most likely is, from its first bytes;
 * null when it may be text. Statistical packages' files would otherwise be
 * "opened" as one column of bytes.
 */
export function binaryFormatOf(head: Uint8Array, textEncodingGiven: boolean): string | null {
  const start = ascii(head, 0, Math.min(head.length, 64));
  if (start.startsWith('$FL2') || start.startsWith('$FL3')) return 'an SPSS data file (.sav/.zsav)';
  if (start.startsWith('HEADER RECORD*******LIBRARY HEADER RECORD') || start.startsWith('HEADER RECORD*******LIBV8   HEADER RECORD')) return 'a SAS transport file (.xpt)';
  if (head.length >= 32 && SAS7BCAT_MAGIC.every((b, i) => head[i] === b)) return 'a SAS format catalog (.sas7bcat; it holds value labels, not data: open the .sas7bdat data set)';
  if (start.startsWith('<stata_dta>')) return 'a Stata data file (.dta, version 117 or later)';
  // Stata 102–115: the release byte, then the byte order (1 MSF, 2 LSF), then file type 1.
  if (head.length >= 4 && head[0]! >= 102 && head[0]! <= 115 && (head[1] === 1 || head[1] === 2) && head[2] === 1 && head[3] === 0) return 'a Stata data file (.dta, version 115 or earlier)';
  if (start.startsWith('%PDF')) return 'a PDF document';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'a gzip-compressed file';
  if (start.startsWith('PK\u0003\u0004')) return 'a zip archive (an .xlsx workbook must have the .xlsx extension)';
  if (head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0) return 'an old Microsoft Office file (.xls, .doc)';
  if (start.startsWith('SQLite format 3')) return 'an SQLite database';
  // UTF-16 text holds NUL bytes; with a BOM or a stated UTF-16 encoding it is text.
  const utf16Bom = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (!utf16Bom && !textEncodingGiven && head.subarray(0, 4096).includes(0)) return 'a binary file (it holds NUL bytes)';
  return null;
}

/** The file's first 4 KiB: enough to tell its format. An unopenable file is named with the reason. */
export function readHead(path: string): Buffer {
  const head = Buffer.alloc(4096);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    // stat succeeds on a file without read permission; opening it is where that shows.
    throw new InputError(`cannot open the file: ${describeErrno((error as NodeJS.ErrnoException).code)}`, basename(path));
  }
  try {
    return head.subarray(0, readSync(fd, head, 0, head.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** Refuses a file that is not text before the CSV reader makes columns of its bytes. */
export function checkLooksLikeText(path: string, head: Uint8Array, utf16Given: boolean): void {
  const format = binaryFormatOf(head, utf16Given);
  if (format) throw new InputError(`this looks like ${format}, which Custos cannot read yet; export it as CSV or Excel`, basename(path));
}
