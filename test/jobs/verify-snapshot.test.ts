import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshotFolder } from '../../src/jobs/verify/snapshot.js';

/** A folder as a run leaves it: two files written together. */
function release(root: string, name: string, version: string): string {
  const dir = join(root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'release.csv'), `csv of ${version}`);
  writeFileSync(join(dir, 'release.xlsx'), `workbook of ${version}`);
  return dir;
}

describe('verify reads one copy of the release folder', () => {
  it('a FIFO (no writer: a plain open would block for ever) and a link are not read, and said as what they are', () => {
    const root = mkdtempSync(join(tmpdir(), 'custos-snapshot-'));
    const dir = release(root, 'out', 'one');
    expect(spawnSync('mkfifo', [join(dir, 'notes.csv')]).status).toBe(0);
    symlinkSync('/dev/zero', join(dir, 'zero.csv'));
    const snapshot = snapshotFolder(dir);
    if (typeof snapshot === 'string') throw new Error(snapshot);
    expect(snapshot.strange).toEqual(['notes.csv is a FIFO, socket or device', 'zero.csv is a symbolic link']);
    expect(readdirSync(snapshot.path).sort()).toEqual(['release.csv', 'release.xlsx']);
    snapshot.remove();
  });

  it('a run that replaces the folder while it is copied (as commitStaged renames a new folder into place): copied again, never a mixture', () => {
    const root = mkdtempSync(join(tmpdir(), 'custos-snapshot-'));
    const dir = release(root, 'out', 'one');
    const snapshot = snapshotFolder(dir, (attempt) => {
      if (attempt > 0) return;
      // The new release is renamed into place after the old one was read.
      const staged = release(root, 'staged', 'two');
      renameSync(dir, join(root, 'old'));
      renameSync(staged, dir);
    });
    if (typeof snapshot === 'string') throw new Error(snapshot);
    expect(readFileSync(join(snapshot.path, 'release.csv'), 'utf8')).toBe('csv of two');
    expect(readFileSync(join(snapshot.path, 'release.xlsx'), 'utf8')).toBe('workbook of two');
    snapshot.remove();
  });

  it('a file swapped in the folder during every copy: verify gives up and says why', () => {
    const root = mkdtempSync(join(tmpdir(), 'custos-snapshot-'));
    const dir = release(root, 'out', 'one');
    const result = snapshotFolder(dir, (attempt) => {
      rmSync(join(dir, 'release.xlsx'));
      writeFileSync(join(dir, `release-${attempt}.xlsx`), 'another');
    });
    expect(result).toMatch(/replaced or changed while verify read it/);
  });
});
