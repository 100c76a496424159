/**
 * The input formats Custos reads: one list for the job's and the report's schemas, the reader's
 * types, the app's open dialog and open step, and `custos inspect`'s help. The readers themselves
 * are chosen by content in src/io/input/read-table.ts; a new format is a reader there and an entry here.
 */
export interface InputFormatInfo {
  /** The file-name extensions the open dialog offers for it, the usual one first. */
  readonly extensions: readonly string[];
  /** Extensions also read as this format when a path names them, not offered in the dialog. */
  readonly alsoNamed: readonly string[];
  /** The format with its extensions, as help and the open step list it ("SPSS .sav/.zsav"). */
  readonly named: string;
  /** The files in the plural where they carry their own encoding and layout ("SPSS files"); null for delimited text, whose reading options apply. */
  readonly selfDescribing: string | null;
}

export const INPUT_FORMATS = {
  csv: { extensions: ['csv', 'tsv', 'txt'], alsoNamed: [], named: 'CSV/TSV', selfDescribing: null },
  xlsx: { extensions: ['xlsx', 'xls'], alsoNamed: ['xlsm'], named: 'Excel', selfDescribing: 'Excel workbooks' },
  sav: { extensions: ['sav', 'zsav'], alsoNamed: [], named: 'SPSS .sav/.zsav', selfDescribing: 'SPSS files' },
  dta: { extensions: ['dta'], alsoNamed: [], named: 'Stata .dta', selfDescribing: 'Stata files' },
  xpt: { extensions: ['xpt'], alsoNamed: [], named: 'SAS transport .xpt', selfDescribing: 'SAS transport files' },
  sas7bdat: { extensions: ['sas7bdat'], alsoNamed: [], named: 'SAS data sets .sas7bdat', selfDescribing: 'SAS data sets' },
  parquet: { extensions: ['parquet'], alsoNamed: [], named: 'Apache Parquet', selfDescribing: 'Parquet files' },
} as const satisfies Readonly<Record<string, InputFormatInfo>>;

export type InputFormat = keyof typeof INPUT_FORMATS;

/** The formats' names, for a zod enum ("csv", "xlsx", …). */
export const INPUT_FORMAT_NAMES = Object.keys(INPUT_FORMATS) as [InputFormat, ...InputFormat[]];

/** Every extension the open dialog offers, in the formats' order. */
export const INPUT_EXTENSIONS: readonly string[] = INPUT_FORMAT_NAMES.flatMap((f) => INPUT_FORMATS[f].extensions);

/** The formats in words: "CSV/TSV, Excel, SPSS .sav/.zsav, …, Apache Parquet". */
export const INPUT_FORMATS_IN_WORDS = INPUT_FORMAT_NAMES.map((f) => INPUT_FORMATS[f].named).join(', ');

/** The self-describing format a path's extension names (a workbook, a statistical package's file), else undefined. */
export function selfDescribingFormatOfPath(path: string): InputFormat | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(path.trim())?.[1]?.toLowerCase();
  if (ext === undefined) return undefined;
  return INPUT_FORMAT_NAMES.find((f) => {
    const info: InputFormatInfo = INPUT_FORMATS[f];
    return info.selfDescribing !== null && (info.extensions.includes(ext) || info.alsoNamed.includes(ext));
  });
}
