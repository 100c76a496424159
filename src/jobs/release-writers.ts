/**
 * The release's writers, one per output format (output.formats), in the order a run writes them:
 * runJob writes each format the job asks for with its writer, and verify's release-layout derives the
 * folder's files from the same writers. Adding an output format is its writer in src/io/output, its
 * name in OUTPUT_FORMATS (src/common/job/job-parts.ts) and an entry here.
 */
import type { OutputFormat, StatisticalFormat } from '../common/job/job-parts.js';
import type { OutputFile } from '../common/report/report-model.js';
import type { VariableMetadata } from '../io/input/import-types.js';
import { writeCsv } from '../io/output/csv-writer.js';
import { DtaStringTooLongError, DtaTooWideError, writeDta } from '../io/output/dta-writer.js';
import { writeParquet } from '../io/output/parquet-writer.js';
import type { CompactTable } from '../io/output/release-table.js';
import { SavStringTooLongError, writeSav } from '../io/output/sav-writer.js';
import type { StagingDir } from '../io/output/staging-dir.js';
import { UnencodableError } from '../io/output/text-encoding.js';
import { CellTooLongError, MAX_SHEET_DATA_ROWS, writeXlsx, type ExtraSheet } from '../io/output/xlsx-writer.js';
import type { Job } from '../mechanisms/definitions.js';
import type { DeflatedPart } from '../io/output/zip-writer.js';
import { JobError } from '../common/job/job-error.js';
import type { ReleasedTableName } from './method-kit/node-mechanism.js';

/** A released table as the writers take it: cut to the values its rows hold. */
export interface CompactRelease extends ReleasedTableName {
  readonly table: CompactTable;
}

/** What a writer is handed: the job, the released tables, where to write, and what was written before it. */
export interface WriteContext {
  readonly job: Job;
  readonly release: StagingDir;
  readonly releases: readonly CompactRelease[];
  /** How the input stored a column (labels, dates), for the statistical packages' files. */
  readonly variableOf: (column: string) => VariableMetadata | undefined;
  readonly created: Date;
  /** The files written so far (the workbook's Checksums sheet lists them). */
  readonly written: readonly OutputFile[];
  /** The published report's sheets for the workbook, given the files written so far. */
  readonly reportSheets: (written: readonly OutputFile[]) => ExtraSheet[];
  readonly progress: (fraction: number) => void;
  /** The workbook's table sheets, deflated on a helper thread meanwhile (workbook-sheets-helper.ts), when one was started. */
  readonly workbookSheets?: Promise<readonly DeflatedPart[]>;
}

export interface ReleaseWriter {
  /** The files it writes for these released tables, in order (verify's release-layout lists them). */
  files(tables: readonly ReleasedTableName[]): string[];
  write(ctx: WriteContext): Promise<OutputFile[]> | OutputFile[];
}

/** One file per released table, named by its stem: release.csv, or qit.csv and st.csv. */
const perTable = (format: string) => (tables: readonly ReleasedTableName[]): string[] => tables.map((t) => `${t.stem}.${format}`);

/** A value the chosen CSV encoding cannot write is a setting to change (exit 2), named with its key. */
function csvOrJobError<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof UnencodableError) throw new JobError(error.message, 'output.csv.encoding');
    throw error;
  }
}

/** A table an SPSS or Stata file cannot hold is the job's problem (its formats), named with its key. */
function statisticalOrJobError<T>(write: () => T): T {
  try {
    return write();
  } catch (error) {
    if (error instanceof SavStringTooLongError || error instanceof DtaStringTooLongError || error instanceof DtaTooWideError) throw new JobError(error.message, 'output.formats');
    throw error;
  }
}

/** A value longer than an Excel cell holds is the job's problem (its formats), named with its key. */
async function xlsxOrJobError<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof CellTooLongError) throw new JobError(error.message, 'output.formats');
    throw error;
  }
}

/** Releases in a statistical package's format, beside the CSV, with what the input said of its variables. */
function statisticalWriter(format: StatisticalFormat, write: typeof writeSav): ReleaseWriter {
  return {
    files: perTable(format),
    write: (ctx) =>
      ctx.releases.map((r) => {
        const name = `${r.stem}.${format}`;
        return { name, rows: r.table.rowCount, ...statisticalOrJobError(() => write(ctx.release.file(name), r.table, ctx.variableOf, ctx.created)) };
      }),
  };
}

const WRITERS: { readonly [F in OutputFormat]: ReleaseWriter } = {
  csv: {
    files: perTable('csv'),
    write: (ctx) =>
      ctx.releases.map((r, i) => {
        const name = `${r.stem}.csv`;
        const file = { name, rows: r.table.rowCount, ...csvOrJobError(() => writeCsv(ctx.release.file(name), r.table, { delimiter: ctx.job.output.delimiter, ...ctx.job.output.csv })) };
        ctx.progress((i + 1) / (ctx.releases.length + 1));
        return file;
      }),
  },
  parquet: {
    files: perTable('parquet'),
    write: (ctx) =>
      ctx.releases.map((r) => {
        const name = `${r.stem}.parquet`;
        return { name, rows: r.table.rowCount, ...writeParquet(ctx.release.file(name), r.table) };
      }),
  },
  sav: statisticalWriter('sav', writeSav),
  dta: statisticalWriter('dta', writeDta),
  // One workbook of every released table, a sheet each, and the published report's sheets.
  xlsx: {
    files: () => ['release.xlsx'],
    write: async (ctx) => {
      const { sheets: _sheets, ...written } = await xlsxOrJobError(() =>
        writeXlsx(ctx.release.file('release.xlsx'), ctx.releases.map((r) => ({ name: r.sheetName, table: r.table })), ctx.reportSheets(ctx.written), MAX_SHEET_DATA_ROWS, ctx.created, ctx.workbookSheets),
      );
      return [{ name: 'release.xlsx', rows: ctx.releases.reduce((sum, r) => sum + r.table.rowCount, 0), ...written }];
    },
  },
};

/**
 * The order a run writes the formats in: the workbook last, since its Checksums sheet lists the
 * files written before it. Every format once: the type below fails to compile when one is missing.
 */
const WRITE_ORDER = ['csv', 'parquet', 'sav', 'dta', 'xlsx'] as const satisfies readonly OutputFormat[];
type Unordered = Exclude<OutputFormat, (typeof WRITE_ORDER)[number]>;
const everyFormatOrdered: [Unordered] extends [never] ? true : Unordered = true;
void everyFormatOrdered;

/** The writers of the formats a job asks for, in the order a run writes them. */
export function writersFor(formats: readonly OutputFormat[]): { readonly format: OutputFormat; readonly writer: ReleaseWriter }[] {
  return WRITE_ORDER.filter((f) => formats.includes(f)).map((format) => ({ format, writer: WRITERS[format] }));
}

/** Every output format in write order (tests check it is OUTPUT_FORMATS, each once). */
export const WRITTEN_FORMATS: readonly OutputFormat[] = WRITE_ORDER;
