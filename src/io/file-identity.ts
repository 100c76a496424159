import { fstatSync, statSync, type BigIntStats } from 'node:fs';

/**
 * One version of a file or folder: its device and inode, size, and the times (in nanoseconds) its
 * contents and its entry last changed. Another file put under the same name, or the same one written
 * to, has another: a reader that opens a name again (a second reading thread, verify copying a
 * folder) compares them to know it reads what was read before.
 */
function identityOf(stats: BigIntStats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

export const identityOfPath = (path: string): string => identityOf(statSync(path, { bigint: true }));

export const identityOfOpenFile = (fd: number): string => identityOf(fstatSync(fd, { bigint: true }));
