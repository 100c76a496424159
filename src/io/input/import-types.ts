import type { Table } from '../../common/table/table.js';
import type { TextEncoding } from '../../common/job/encoding.js';

export interface ImportOptions {
  readonly delimiter?: string;
  readonly encoding?: TextEncoding;
  readonly sheet?: string | number | null;
  readonly missing: readonly string[];
  /** "error": the first malformed row stops the import; "skip": rejected rows are reported. */
  readonly onBadRow: 'error' | 'skip';
  readonly onProgress?: (bytesRead: number, bytesTotal: number) => void;
}

export interface RejectedRow {
  readonly line: number;
  readonly reason: string;
}

export interface ImportedTable {
  readonly table: Table;
  readonly format: 'csv' | 'xlsx';
  readonly encoding?: TextEncoding;
  readonly bom?: boolean;
  readonly delimiter?: string;
  readonly sheet?: string;
  readonly sheets?: readonly string[];
  readonly sha256: string;
  readonly bytes: number;
  readonly rejectedRows: readonly RejectedRow[];
  readonly rejectedRowCount: number;
  /** Records dropped because a sensitive value was missing (input.missingSensitive "exclude"). */
  readonly excludedMissingSensitive?: number;
}
