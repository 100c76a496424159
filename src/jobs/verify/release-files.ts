import { join } from 'node:path';
import type { Table } from '../../common/table/table.js';
import { searchableText, type SearchablePart } from '../../io/input/searchable-text.js';
import { RELEASED_TABLE_OPTIONS } from '../method-kit/released-table.js';

/** The workbook's report sheets (run-job.ts writes them); its other sheets hold released tables. */
export const REPORT_SHEETS: ReadonlySet<string> = new Set(['Report', 'Parameters', 'Checksums']);

/**
 * A release folder's files as verify reads them, each read once: parsing a million-row workbook
 * takes most of a minute, and both the publishability search and the workbook's agreement with the
 * CSV need its sheets. A sheet's table is built on first use and kept with it.
 */
export class ReleaseFiles {
  readonly #read = new Map<string, SearchablePart[] | Error>();

  constructor(readonly dir: string) {}

  /** The file's searchable parts (searchable-text.ts); a workbook's sheets also as tables. Throws what reading throws. */
  parts(name: string): SearchablePart[] {
    let parts = this.#read.get(name);
    if (!parts) {
      // A file that cannot be read is not read twice (a hostile workbook may take a minute to refuse).
      try {
        parts = searchableText(join(this.dir, name), RELEASED_TABLE_OPTIONS).map((p) => (p.table ? { ...p, table: once(p.table) } : p));
      } catch (error) {
        parts = error instanceof Error ? error : new Error(String(error));
      }
      this.#read.set(name, parts);
    }
    if (parts instanceof Error) throw parts;
    return parts;
  }

  /** Drops what was read (the checks that share it are done). */
  forget(): void {
    this.#read.clear();
  }
}

function once(build: () => Table): () => Table {
  let table: Table | undefined;
  return () => (table ??= build());
}
