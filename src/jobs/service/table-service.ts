import { randomUUID } from 'node:crypto';
import { basename, resolve } from 'node:path';
import type { OpenedFile } from '../../common/ipc/api.js';
import { datedColumnInfo } from '../column-info.js';
import type { Report } from '../../common/report/report-model.js';
import { HierarchyError, tableHierarchy, unmappedValues } from '../../common/recoding/hierarchy.js';
import type { ImportedTable, ImportOptions } from '../../io/input/import-types.js';
import { InputError } from '../../io/input/input-error.js';
import { renamedColumnsWarning } from '../../io/input/table-builder.js';
import { readHierarchyRows } from '../../io/input/hierarchy-reader.js';
import { describeFailure, executeRequest } from '../execute-request.js';
import type { JobFailure } from '../job-request.js';
import { TableCache } from './table-cache.js';
import { readDateColumns } from '../../io/input/date-columns.js';
import type { DateReading } from '../../common/table/date-text.js';
import { missingCandidates } from '../../common/table/missing-codes.js';
import type { WorkerScript } from '../../io/worker-script.js';

/** What the host asks the long-lived worker; plain data, it crosses threads. */
export type ServiceCall =
  | { readonly call: 'inspect'; readonly path: string; readonly options: Omit<ImportOptions, 'onProgress'>; readonly dates?: Readonly<Record<string, DateReading>> }
  | { readonly call: 'rows'; readonly fileId: string; readonly offset: number; readonly count: number }
  | { readonly call: 'checkHierarchy'; readonly fileId: string; readonly column: string; readonly path: string }
  | { readonly call: 'assess'; readonly job: unknown; readonly baseDir: string };

export interface HierarchyCheck {
  readonly levels: number;
  readonly unmapped: string[];
  readonly unmappedCount: number;
}

/** The value each call answers with. */
export interface ServiceValues {
  readonly inspect: OpenedFile;
  readonly rows: string[][];
  readonly checkHierarchy: HierarchyCheck;
  readonly assess: Report;
}

export type ServiceReply<K extends ServiceCall['call']> = { readonly ok: true; readonly value: ServiceValues[K] } | { readonly ok: false; readonly failure: JobFailure };

const MAX_OPEN_FILES = 3;
/**
 * The tables the app has open, held by the long-lived worker that read them:
 * the host's thread never holds or scans a million rows (no task of its own
 * grows with the file), the preview pages through them here, and a risk
 * preview reuses the table it was read into instead of reading the file again.
 */
export class TableService {
  private readonly files = new Map<string, ImportedTable>();
  private readonly cache = new TableCache();

  /** `helperScript`: this worker's own script, so a large file is read on two threads. */
  constructor(private readonly helperScript?: WorkerScript) {}

  private read(path: string, options: ImportOptions): ImportedTable {
    return this.cache.read(path, this.helperScript ? { ...options, helperScript: this.helperScript } : options);
  }

  async handle(request: ServiceCall): Promise<ServiceReply<ServiceCall['call']>> {
    try {
      switch (request.call) {
        case 'inspect':
          return { ok: true, value: this.inspect(request.path, request.options, request.dates) };
        case 'rows':
          return this.rows(request.fileId, request.offset, request.count);
        case 'checkHierarchy':
          return this.checkHierarchy(request.fileId, request.column, request.path);
        case 'assess': {
          const result = await executeRequest({ command: 'assess', job: request.job, baseDir: request.baseDir }, { readTable: (path, options) => this.read(path, options) });
          return { ok: true, value: result.report };
        }
      }
    } catch (error) {
      return { ok: false, failure: describeFailure(error) };
    }
  }

  /** The file as the run reads it: dates typed as text made ISO dates (those the person chose, and those every value shows), with what was found about each. */
  private inspect(path: string, options: Omit<ImportOptions, 'onProgress'>, chosen?: Readonly<Record<string, DateReading>>): OpenedFile {
    // A choice for a column this file does not have (another file's) is left for the job's check to name.
    const dated = readDateColumns(this.read(path, options), basename(path), chosen, new Set());
    const imported = dated.imported;
    const fileId = randomUUID();
    this.files.set(fileId, imported);
    while (this.files.size > MAX_OPEN_FILES) this.files.delete(this.files.keys().next().value!);
    return {
      fileId, path, name: basename(path), rows: imported.table.rowCount, bytes: imported.bytes, sha256: imported.sha256, format: imported.format,
      ...(imported.encoding ? { encoding: imported.encoding } : {}),
      ...(imported.delimiter !== undefined ? { delimiter: imported.delimiter } : {}),
      ...(imported.sheet ? { sheet: imported.sheet, sheets: [...(imported.sheets ?? [])] } : {}),
      columns: datedColumnInfo(dated),
      rejected: imported.rejectedRows.slice(0, 200),
      rejectedCount: imported.rejectedRowCount,
      ...missingProposal(imported),
      ...(imported.renamedColumns?.length ? { renamed: imported.renamedColumns.map((r) => ({ ...r })), renamedWarning: renamedColumnsWarning(imported.renamedColumns) } : {}),
    };
  }

  private rows(fileId: string, offset: number, count: number): ServiceReply<'rows'> {
    const imported = this.files.get(fileId);
    if (!imported) return { ok: false, failure: { kind: 'input', message: 'the file is no longer open; open it again' } };
    const { table } = imported;
    const end = Math.min(table.rowCount, offset + count);
    const rows: string[][] = [];
    for (let r = offset; r < end; r++) rows.push(table.columns.map((c) => c.dictionary[c.codes[r]!]!));
    return { ok: true, value: rows };
  }

  /** A hierarchy file against a column of an opened table: the wizard checks it where it is typed, not at the run. */
  private checkHierarchy(fileId: string, columnName: string, path: string): ServiceReply<'checkHierarchy'> {
    const column = this.files.get(fileId)?.table.columns.find((c) => c.name === columnName);
    if (!column) return { ok: false, failure: { kind: 'input', message: 'the file is no longer open; open it again' } };
    try {
      const hierarchy = tableHierarchy(readHierarchyRows(resolve(path)));
      const unmapped = unmappedValues(column, hierarchy);
      return { ok: true, value: { levels: hierarchy.depth - 1, unmapped: unmapped.slice(0, 8), unmappedCount: unmapped.length } };
    } catch (error) {
      if (error instanceof InputError || error instanceof HierarchyError) return { ok: false, failure: { kind: 'input', message: error.message } };
      throw error;
    }
  }
}

/** Values of the file that look like missing-value codes, when there are any. */
function missingProposal(imported: ImportedTable): { missingCandidates?: { code: string; columns: string[]; count: number }[] } {
  const found = missingCandidates(imported.table.columns).slice(0, 50);
  return found.length > 0 ? { missingCandidates: found.map((c) => ({ code: c.code, columns: [...c.columns], count: c.count })) } : {};
}

