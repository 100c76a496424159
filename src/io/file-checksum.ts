import { createHash } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK_BYTES = 4 << 20;

/** The SHA-256 (hex) of an open file's bytes from 0 to `end` (to its end when it ends first, or without `end`). */
export function sha256OfOpenFile(fd: number, end = Infinity): string {
  const hash = createHash('sha256');
  const chunk = new Uint8Array(Math.min(CHUNK_BYTES, end));
  for (let position = 0; position < end; ) {
    const read = readSync(fd, chunk, 0, Math.min(chunk.length, end - position), position);
    if (read === 0) break;
    hash.update(chunk.subarray(0, read));
    position += read;
  }
  return hash.digest('hex');
}

/** The SHA-256 (hex) of a file's bytes. */
export function sha256OfFile(path: string): string {
  const fd = openSync(path, 'r');
  try {
    return sha256OfOpenFile(fd);
  } finally {
    closeSync(fd);
  }
}
