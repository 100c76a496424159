import type { WorkerScript } from '../worker-script.js';
import type { Table } from '../../common/table/table.js';
import type { TextEncoding } from '../../common/job/encoding.js';
import type { RenamedColumn } from './table-builder.js';
import type { InputFormat } from '../../common/input-formats.js';

export interface ImportOptions {
  readonly delimiter?: string;
  readonly encoding?: TextEncoding;
  readonly sheet?: string | number | null;
  readonly missing: readonly string[];
  /** "error": the first malformed row stops the import; "skip": rejected rows are reported. */
  readonly onBadRow: 'error' | 'skip';
  readonly onProgress?: (bytesRead: number, bytesTotal: number) => void;
  /**
   * A script that can read part of a large delimited file on a second thread (the job worker's
   * own); without it one thread reads everything. The table is the same either way.
   */
  readonly helperScript?: WorkerScript;
  /**
   * The helper thread, once it has read its part, waits for other work (keepWorkerWarm) instead of
   * ending: the caller then stops it with stopWarmWorkers if nothing takes it (a run does, however it ends).
   */
  readonly keepHelperWarm?: boolean;
  /**
   * A table of no records is refused (nothing can be protected or described); a released file may
   * legitimately hold none (every class suppressed), so verify's re-reading allows it.
   */
  readonly allowNoRecords?: boolean;
  /**
   * The most XML a workbook may inflate to (zip-limits.ts): the input limit unless given. verify
   * gives a larger one for a release's own workbooks, which may hold a million rows.
   */
  readonly workbookLimit?: number;
}

export interface RejectedRow {
  readonly line: number;
  readonly reason: string;
}

export interface ImportedTable {
  readonly table: Table;
  /**
   * Delimited text and workbooks: per column, the line (sheet row) each dictionary code was first
   * met on, to name a value refused after reading. Valid for `table` as read only.
   */
  readonly firstLines?: readonly Uint32Array[];
  readonly format: InputFormat;
  readonly encoding?: TextEncoding;
  readonly bom?: boolean;
  readonly delimiter?: string;
  readonly sheet?: string;
  readonly sheets?: readonly string[];
  readonly sha256: string;
  readonly bytes: number;
  readonly rejectedRows: readonly RejectedRow[];
  readonly rejectedRowCount: number;
  /** What a statistical package's file said about its variables (labels, codes replaced by labels, declared missing values). */
  readonly variables?: readonly VariableMetadata[];
  /** Records dropped because a sensitive value was missing (input.missingSensitive "exclude"). */
  readonly excludedMissingSensitive?: number;
  /** Columns of a delimited file or sheet whose header name was empty or repeated, with the name they are read under (table-builder's nameColumns). */
  readonly renamedColumns?: readonly RenamedColumn[];
}

/** A variable as a statistical package's file describes it. */
export interface VariableMetadata {
  readonly name: string;
  /** The variable label ("Age in years"). */
  readonly label?: string;
  /** The codes the file stored, replaced in the table by their value labels. */
  readonly valueLabels: readonly { readonly code: string; readonly label: string }[];
  /**
   * Every label the file declares for the variable, used by a record or not (declared-missing codes
   * left out): metadata a job may take as the column's domain (method.domains "value-labels").
   * Not copied into reports.
   */
  readonly labelSet?: readonly string[];
  /** Values read as missing because the file declares them missing (SPSS user-missing values). */
  readonly declaredMissing: number;
  /** The file's case weight (SPSS WEIGHT BY): read as an ordinary column, the methods do not weight records. */
  readonly weight?: true;
  /** Read from a date or date-time format into ISO text. */
  readonly dates?: 'date' | 'datetime';
}
