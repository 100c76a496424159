import { closeSync, constants, fstatSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { identityOfPath } from '../../io/file-identity.js';

/** A private copy of a folder's regular files, read once each, and what was not copied. */
export interface Snapshot {
  readonly path: string;
  /** Entries that are not regular files, with what they are ("a symbolic link"). */
  readonly strange: readonly string[];
  remove(): void;
}

const ATTEMPTS = 3;

/**
 * Copies the folder's regular files into a private folder and returns it, so that every check reads
 * the same bytes: each entry is opened once, without following a link and without blocking (a FIFO
 * swapped in after any earlier look is never read), and its handle, not its name, is checked to be a
 * regular file. A run that replaces the folder meanwhile (it renames a new folder into place) changes
 * the folder's identity or listing: the copy is then made again, and after a few tries verify gives up
 * rather than check a mixture of two releases.
 */
export function snapshotFolder(dir: string, afterCopy?: (attempt: number) => void): Snapshot | string {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const target = mkdtempSync(join(tmpdir(), 'custos-verify-snapshot-'));
    const remove = (): void => rmSync(target, { recursive: true, force: true });
    try {
      const before = identityOfPath(dir);
      const names = readdirSync(dir).sort();
      const strange: string[] = [];
      for (const name of names) {
        const problem = copyRegular(join(dir, name), join(target, name));
        if (problem) strange.push(`${name} is ${problem}`);
      }
      // For tests: what another program does while the copy is made.
      afterCopy?.(attempt);
      if (identityOfPath(dir) === before && readdirSync(dir).sort().join('\u0000') === names.join('\u0000')) return { path: target, strange, remove };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
        remove();
        return `cannot be read (${(error as Error).message})`;
      }
    }
    remove();
  }
  return 'it was replaced or changed while verify read it (a run writing the same folder?); verify it again when the run is done';
}

/** Copies a regular file read through one handle; what it is instead, when it is not one. */
function copyRegular(from: string, to: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(from, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return 'a symbolic link';
    if (code === 'ENXIO') return 'a FIFO, socket or device';
    if (code === 'EISDIR') return 'a folder';
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return 'a folder';
    if (!stats.isFile()) return 'a FIFO, socket or device';
    const out = openSync(to, 'wx');
    try {
      const buffer = Buffer.allocUnsafe(1 << 20);
      for (let n = readSync(fd, buffer, 0, buffer.length, null); n > 0; n = readSync(fd, buffer, 0, buffer.length, null)) writeSync(out, buffer, 0, n);
    } finally {
      closeSync(out);
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}
