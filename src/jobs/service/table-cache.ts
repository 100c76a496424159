import { statSync } from 'node:fs';
import type { ImportedTable, ImportOptions } from '../../io/input/import-types.js';
import { readTable } from '../../io/input/read-table.js';

interface Entry {
  readonly path: string;
  /** The file as it was when read: a change on disk makes the entry stale. */
  readonly size: number;
  readonly mtimeMs: number;
  readonly options: Omit<ImportOptions, 'onProgress'>;
  readonly imported: ImportedTable;
}

const KEPT = 2;

/**
 * The last tables read, kept in the long-lived worker so that a risk preview
 * after a parameter change reruns only the mechanism, not the reading. A table
 * is reused only for the same file, unchanged on disk, read the same way: the
 * same missing codes and sheet, and the delimiter and encoding asked for (a
 * table whose delimiter was detected serves a request naming that delimiter;
 * one read with a forced delimiter never serves a request that asks to detect). A table read skipping bad rows
 * serves a request that stops at them only when there were none.
 */
export class TableCache {
  private entries: Entry[] = [];

  read(path: string, options: ImportOptions): ImportedTable {
    let stat: { size: number; mtimeMs: number };
    try {
      stat = statSync(path);
    } catch {
      // The reader names what is wrong with the path (missing, a folder, unreadable) in plain words.
      return readTable(path, options);
    }
    const { size, mtimeMs } = stat;
    const hit = this.entries.find((e) => e.path === path && e.size === size && e.mtimeMs === mtimeMs && sameReading(e, options));
    if (hit) {
      options.onProgress?.(1, 1);
      this.entries = [hit, ...this.entries.filter((e) => e !== hit)];
      return hit.imported;
    }
    const imported = readTable(path, options);
    const { onProgress: _onProgress, ...kept } = options;
    this.entries = [{ path, size, mtimeMs, options: kept, imported }, ...this.entries].slice(0, KEPT);
    return imported;
  }
}

function sameReading(entry: Entry, options: ImportOptions): boolean {
  const was = entry.options;
  const got = entry.imported;
  if (was.missing.length !== options.missing.length || was.missing.some((m, i) => m !== options.missing[i])) return false;
  // Asked for: what the table was read with, forced or detected. Not asked for: a table whose reading detected it too.
  if (options.delimiter === undefined ? was.delimiter !== undefined : options.delimiter !== got.delimiter) return false;
  if (options.encoding === undefined ? was.encoding !== undefined : options.encoding !== got.encoding) return false;
  // The sheet by name: the first when none is asked for (a CSV has no sheets, any request reads it the same).
  const wanted = options.sheet ?? 0;
  if (got.sheets && got.sheet !== (typeof wanted === 'number' ? got.sheets[wanted] : wanted)) return false;
  if (options.onBadRow !== was.onBadRow && !(options.onBadRow === 'error' && got.rejectedRowCount === 0)) return false;
  return true;
}
