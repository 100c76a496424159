import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Column, Table } from '../../common/table/table.js';
import type { OutputFile, Report } from '../../common/report/report-model.js';
import type { VariableMetadata } from '../../io/input/import-types.js';
import { readTable } from '../../io/input/read-table.js';
import { writeCsv } from '../../io/output/csv-writer.js';
import { writeDta } from '../../io/output/dta-writer.js';
import { manifestJson, MANIFEST_SCHEMA_1, type Manifest } from '../../io/output/manifest.js';
import { csvText } from '../../io/output/neutralize.js';
import { writeParquet } from '../../io/output/parquet-writer.js';
import { compactReleaseTable, type CompactTable, type ReleaseColumn } from '../../io/output/release-table.js';
import { writeSav } from '../../io/output/sav-writer.js';
import { MAX_SHEET_DATA_ROWS, SheetNames, writeXlsx } from '../../io/output/xlsx-writer.js';
import type { Job } from '../../mechanisms/definitions.js';
import { jsonReplacer } from '../json.js';
import type { CheckList } from '../method-kit/checks.js';
import type { ReleasedTableName } from '../method-kit/node-mechanism.js';
import { RELEASED_TABLE_OPTIONS } from '../method-kit/released-table.js';
import { reportHtml, reportPdf } from '../report-renderings.js';
import { workbookReportSheets } from '../run-job.js';
import { releaseLayout } from './release-layout.js';
import type { ReleaseFiles } from './release-files.js';
import { dtaNumericColumns, parquetNumericColumns, savNumericColumns, xlsxNumericColumns, zipEntries, zipEntryText } from './stored-types.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * Every byte of a release folder accounted for: its files are exactly those the published job and
 * method make (release-layout.ts), and each is written again here, from the released tables and the
 * published report, by the writers the run used, and must be the same bytes. Any data a file holds
 * beyond what its writer puts there (an extra zip part, shared string, Parquet page, value label,
 * document record, an HTML comment, bytes appended) makes it differ.
 *
 * The released tables come from the CSV files (the reference), each value taken from the file that
 * keeps it most exactly where the CSV holds it changed (its formula guard, a line break written as
 * LF): the Stata file, else the SPSS file (which drops trailing blanks: the CSV's are kept), else the
 * Parquet file or workbook. What the CSV cannot say is read from the typed files: which columns are
 * numbers, and the SPSS/Stata variable labels, value-label codes and date formats (see the README
 * for what this proves without the original).
 */
/** `onTables`: handed the released tables as read back, for the checks that need them too (the disclosure review). */
export async function checkRewritten(files: ReleaseFiles, manifest: Manifest, manifestText: string, job: Job, report: Report, reportText: string, checks: CheckList, onTables?: (tables: readonly { readonly stem: string; readonly table: CompactTable }[]) => void): Promise<void> {
  const { dir } = files;
  const layout = releaseLayout(job, report);
  const listed = manifest.files.map((f) => f.name);
  const sums = new Map(manifest.files.map((f) => [f.name, f]));
  checks.run('files of this release', () => {
    const twice = listed.filter((name, i) => listed.indexOf(name) !== i);
    const expected = new Set(layout.files);
    const extra = listed.filter((name) => !expected.has(name));
    const missing = layout.files.filter((name) => !sums.has(name));
    const problems = [
      ...(twice.length ? [`manifest.json lists ${[...new Set(twice)].join(', ')} more than once`] : []),
      ...(extra.length ? [`not a file this job and method write: ${extra.join(', ')}`] : []),
      ...(missing.length ? [`missing: ${missing.join(', ')}`] : []),
    ];
    if (problems.length) return { ok: false, detail: problems.join('; ') };
    return `exactly the ${layout.files.length} files the published job (output.formats, output.report) and method make, and manifest.json`;
  });
  const sha = (name: string): string | undefined => sums.get(name)?.sha256;
  const same = (name: string, bytes: string | Buffer, what: string): { ok: false; detail: string } | string => {
    const digest = createHash('sha256').update(bytes).digest('hex');
    return digest === sha(name) ? `byte for byte ${what}` : { ok: false, detail: `not ${what}: ${firstDifference(join(dir, name), Buffer.from(bytes))}` };
  };
  checks.run('manifest.json written again', () => {
    const entries = layout.files.map((name) => sums.get(name)).filter((e) => e !== undefined);
    // The identifier the release and its internal folder share: random, drawn by the run, taken as
    // written. A folder written before identifiers (schema 1) has none: its manifest is that form.
    const parsed = JSON.parse(manifestText) as { schema?: unknown; release?: unknown };
    const again =
      parsed.schema === MANIFEST_SCHEMA_1
        ? JSON.stringify({ schema: MANIFEST_SCHEMA_1, kind: 'release', files: entries.map(({ name, sha256, bytes }) => ({ name, sha256, bytes })) }, null, 2) + '\n'
        : typeof parsed.release === 'string' ? manifestJson('release', entries, parsed.release) : undefined;
    return again === manifestText ? 'byte for byte as Custos writes it, in the order the run writes the files' : { ok: false, detail: 'not as Custos writes it (an entry listed twice, out of order or not of this release, or other bytes)' };
  });
  checks.run('report.json written again', () => {
    const again = JSON.stringify(JSON.parse(reportText), jsonReplacer, 2) + '\n';
    return again === reportText ? 'byte for byte as Custos writes it' : { ok: false, detail: 'not as Custos writes a report (other spacing, a key twice, or bytes around the JSON)' };
  });
  const forRenderings: Report = { ...report, output: { ...report.output!, files: (report.output?.files ?? []).filter((f) => f.name !== 'report.html' && f.name !== 'report.pdf') } };
  checks.run('job.json written again', () => same('job.json', JSON.stringify(report.job, null, 2) + '\n', 'the job report.json embeds, as Custos writes it'));
  if (layout.files.includes('report.html')) checks.run('report.html written again', () => same('report.html', reportHtml(forRenderings), 'the rendering of report.json'));
  if (layout.files.includes('report.pdf')) checks.run('report.pdf written again', () => same('report.pdf', reportPdf(forRenderings), 'the rendering of report.json'));

  const dataFiles = layout.files.filter((name) => /\.(csv|parquet|sav|dta|xlsx)$/.test(name));
  if (dataFiles.length === 0) return;
  const scratch = mkdtempSync(join(tmpdir(), 'custos-verify-'));
  try {
    let tables: { name: ReleasedTableName; table: CompactTable; metadata: Map<string, (column: string) => VariableMetadata | undefined> }[] | undefined;
    checks.run('released tables read for writing again', () => {
      tables = layout.tables.map((name, t) => ({ name, ...releasedTable(files, layout.tables, t, job, layout.files) }));
      return `${tables.map((t) => `${t.name.stem}: ${t.table.rowCount} rows × ${t.table.columns.length} columns`).join('; ')}`;
    });
    const rowsOf = new Map<string, number>();
    for (const t of tables ?? []) for (const ext of ['csv', 'parquet', 'sav', 'dta']) rowsOf.set(`${t.name.stem}.${ext}`, t.table.rowCount);
    rowsOf.set('release.xlsx', (tables ?? []).reduce((sum, t) => sum + t.table.rowCount, 0));
    checks.run("report.json's output.files", () => {
      const outputFiles = JSON.stringify(report.output?.files ?? null);
      if (!tables) return { ok: false, detail: 'the released tables could not be read to count their rows' };
      return outputFiles === JSON.stringify(expectedOutputFiles(layout.files, sums, rowsOf)) ? 'the files of this release, in order, with their checksums and the rows of their tables' : { ok: false, detail: 'does not list the files of this release in order, with their checksums and the rows their tables hold' };
    });
    if (!tables) return;
    onTables?.(tables.map((t) => ({ stem: t.name.stem, table: t.table })));
    const created = new Date(report.createdAt);
    for (const { name, table, metadata } of tables) {
      for (const ext of ['csv', 'parquet', 'sav', 'dta']) {
        const file = `${name.stem}.${ext}`;
        if (!layout.files.includes(file)) continue;
        checks.run(`${file} written again`, () => {
          const path = join(scratch, file);
          const written =
            ext === 'csv'
              ? writeCsv(path, table, { delimiter: job.output.delimiter, ...job.output.csv })
              : ext === 'parquet'
                ? writeParquet(path, table)
                : (ext === 'sav' ? writeSav : writeDta)(path, table, metadata.get(ext) ?? (() => undefined), created);
          return written.sha256 === sha(file) ? 'byte for byte as Custos writes the released table' : { ok: false, detail: `not as Custos writes the released table: ${firstDifference(join(dir, file), readFileSync(path))}` };
        });
      }
    }
    if (layout.files.includes('release.xlsx')) {
      const path = join(scratch, 'release.xlsx');
      const outputFiles = report.output?.files ?? [];
      const before = outputFiles.slice(0, Math.max(0, outputFiles.findIndex((f) => f.name === 'release.xlsx')));
      const sheets = workbookReportSheets({ ...report, output: { ...report.output!, files: [] } }, before);
      try {
        const written = await writeXlsx(path, tables.map((t) => ({ name: t.name.sheetName, table: t.table })), sheets, MAX_SHEET_DATA_ROWS, created);
        checks.add('release.xlsx written again', written.sha256 === sha('release.xlsx'), written.sha256 === sha('release.xlsx') ? 'byte for byte as Custos writes the released tables and the report sheets' : `not as Custos writes the released tables and report sheets: ${workbookDifference(join(dir, 'release.xlsx'), path)}`);
      } catch (error) {
        checks.add('release.xlsx written again', false, `cannot be written again: ${(error as Error).message}`);
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** output.files as the run lists them: every file but report.json, tables with their rows. */
function expectedOutputFiles(names: readonly string[], sums: ReadonlyMap<string, { sha256: string; bytes: number }>, rowsOf: ReadonlyMap<string, number>): OutputFile[] {
  return names
    .filter((name) => name !== 'report.json' && sums.has(name))
    .map((name) => {
      const { sha256, bytes } = sums.get(name)!;
      const rows = /\.(csv|parquet|sav|dta|xlsx)$/.test(name) ? rowsOf.get(name) : undefined;
      return { name, ...(rows !== undefined ? { rows } : {}), sha256, bytes };
    });
}

interface View {
  readonly table: Table;
  readonly variables?: readonly VariableMetadata[];
}

/**
 * A released table as the run's writers saw it, from the files of the release: its values (see
 * checkRewritten), which columns are numbers, and per statistical format the variables' metadata.
 */
function releasedTable(files: ReleaseFiles, names: readonly ReleasedTableName[], t: number, job: Job, layout: readonly string[]): { table: CompactTable; metadata: Map<string, (column: string) => VariableMetadata | undefined> } {
  const { dir } = files;
  const stem = names[t]!.stem;
  const has = (ext: string): boolean => layout.includes(`${stem}.${ext}`) && existsSync(join(dir, `${stem}.${ext}`));
  const read = (ext: string): View => {
    const imported = readTable(join(dir, `${stem}.${ext}`), ext === 'csv' ? { ...RELEASED_TABLE_OPTIONS, delimiter: job.output.delimiter } : RELEASED_TABLE_OPTIONS);
    return { table: imported.table, ...(imported.variables ? { variables: imported.variables } : {}) };
  };
  const csv = has('csv') ? read('csv') : undefined;
  const parquet = has('parquet') ? read('parquet') : undefined;
  const sav = has('sav') ? read('sav') : undefined;
  const dta = has('dta') ? read('dta') : undefined;
  // The workbook's sheets of this table: the first one's part, and the table itself when it fits one sheet.
  let xlsx: View | undefined;
  let xlsxNumeric: boolean[] | undefined;
  const reference = csv ?? parquet;
  if (layout.includes('release.xlsx')) {
    const sheetNames = new SheetNames();
    let part = 1;
    let first = '';
    let count = 1;
    let firstPart = 1;
    names.forEach((n, u) => {
      const rows = u === t ? (reference?.table.rowCount ?? 0) : (readRowCount(files, n.stem, job) ?? 0);
      const sheets = Math.max(1, Math.ceil(rows / MAX_SHEET_DATA_ROWS));
      for (let k = 0; k < sheets; k++) {
        const sheetName = sheetNames.name(n.sheetName, sheets === 1 ? '' : ` ${k + 1}`);
        if (u === t && k === 0) {
          first = sheetName;
          count = sheets;
          firstPart = part;
        }
        part++;
      }
    });
    if (count === 1) {
      const sheet = files.parts('release.xlsx').find((p) => p.sheet === first);
      if (sheet?.table) xlsx = { table: sheet.table() };
    }
    const columns = (reference ?? xlsx)?.table.columns.length ?? 0;
    xlsxNumeric = xlsxNumericColumns(readFileSync(join(dir, 'release.xlsx')), `xl/worksheets/sheet${firstPart}.xml`, columns);
  }
  const base = reference ?? xlsx;
  if (!base) throw new Error(`no file holds ${stem}`);
  const width = base.table.columns.length;
  const statistical = (view: View | undefined): boolean[] => (view?.variables ?? []).map((v) => v.valueLabels.length === 0 && v.dates === undefined);
  const numericSources = [
    parquet ? parquetNumericColumns(join(dir, `${stem}.parquet`)) : [],
    xlsxNumeric ?? [],
    sav ? savNumericColumns(join(dir, `${stem}.sav`), width).map((n, j) => n && statistical(sav)[j] !== false) : [],
    dta ? dtaNumericColumns(join(dir, `${stem}.dta`), width).map((n, j) => n && statistical(dta)[j] !== false) : [],
  ];
  const columns: ReleaseColumn[] = base.table.columns.map((column, j) => {
    // The most exact copy of the values beside the CSV: Stata, SPSS, Parquet, the workbook.
    const rawest = csv ? ([dta && { view: dta, kind: 'dta' as const }, sav && { view: sav, kind: 'sav' as const }, parquet && { view: parquet, kind: 'typed' as const }, xlsx && { view: xlsx, kind: 'typed' as const }].find((v) => v && v.view.table.rowCount === base.table.rowCount && v.view.table.columns.length === width) || undefined) : undefined;
    const values = csv && rawest ? refined(column, rawest.view.table.columns[j]!, rawest.kind, base.table.rowCount) : { dictionary: column.dictionary, codes: column.codes };
    const name = headerName(column.name, csv !== undefined, [parquet, xlsx].map((v) => v?.table.columns[j]?.name));
    return { name, ...values, via: null, numeric: numericSources.some((s) => s[j] === true) };
  });
  const metadataOf = (view: View | undefined): ((column: string) => VariableMetadata | undefined) => {
    const byColumn = new Map<string, VariableMetadata>();
    view?.table.columns.forEach((c, j) => {
      const variable = view.variables?.find((v) => v.name === c.name);
      if (variable && columns[j]) byColumn.set(columns[j]!.name, variable);
    });
    return (column) => byColumn.get(column);
  };
  return { table: compactReleaseTable({ rowCount: base.table.rowCount, columns }), metadata: new Map([['sav', metadataOf(sav)], ['dta', metadataOf(dta)]]) };
}

function readRowCount(files: ReleaseFiles, stem: string, job: Job): number | undefined {
  for (const ext of ['csv', 'parquet']) {
    const path = join(files.dir, `${stem}.${ext}`);
    if (existsSync(path)) return readTable(path, ext === 'csv' ? { ...RELEASED_TABLE_OPTIONS, delimiter: job.output.delimiter } : RELEASED_TABLE_OPTIONS).table.rowCount;
  }
  return undefined;
}

/** A column's name: the CSV's, unless it is the formula guard of a typed file's name. */
function headerName(csvName: string, fromCsv: boolean, typed: readonly (string | undefined)[]): string {
  if (!fromCsv) return csvName;
  const exact = typed.find((name) => name !== undefined && csvText(name) === csvName);
  if (exact !== undefined) return exact;
  return csvName.startsWith("'") && csvText(csvName.slice(1)) === csvName ? csvName.slice(1) : csvName;
}

const BOM = '\ufeff';
const trailingBlanks = (text: string): string => text.slice(text.replace(/ +$/, '').length);

/**
 * The CSV column's values, each replaced by the other file's value where that one is what the CSV
 * writer turned into the CSV's (a guarded formula, a CR line break, a control character), so the
 * writers see the value they saw in the run. A value the other file's reader changed is restored: an
 * SPSS string without its trailing blanks gets the CSV's back, a value whose leading U+FEFF a reader
 * dropped gets it back. Where no candidate gives the CSV's value, the CSV's is kept (and the file that
 * disagrees fails on its bytes).
 */
function refined(csv: Column, other: Column, kind: 'dta' | 'sav' | 'typed', rowCount: number): { dictionary: string[]; codes: Uint32Array } {
  const dictionary: string[] = [];
  const index = new Map<string, number>();
  const byPair = new Map<number, number>();
  const codes = new Uint32Array(rowCount);
  const width = other.dictionary.length;
  for (let r = 0; r < rowCount; r++) {
    const pair = csv.codes[r]! * width + other.codes[r]!;
    let code = byPair.get(pair);
    if (code === undefined) {
      const c = csv.dictionary[csv.codes[r]!]!;
      const o = other.dictionary[other.codes[r]!]!;
      const candidates = kind === 'sav' ? [o + trailingBlanks(c), BOM + o + trailingBlanks(c)] : [o, BOM + o];
      const value = candidates.find((v) => csvText(v) === c) ?? c;
      code = index.get(value);
      if (code === undefined) {
        code = dictionary.length;
        index.set(value, code);
        dictionary.push(value);
      }
      byPair.set(pair, code);
    }
    codes[r] = code;
  }
  return { dictionary, codes };
}

/** Where a file first differs from the one written again (both sizes), for the finding. */
function firstDifference(path: string, again: Buffer): string {
  const actual = readFileSync(path);
  let i = 0;
  while (i < actual.length && i < again.length && actual[i] === again[i]) i++;
  if (i === again.length && actual.length > again.length) return `it has ${formatCount(actual.length - again.length)} bytes more, after byte ${formatCount(i)}`;
  return `it differs from byte ${formatCount(i)} on (${formatCount(actual.length)} bytes; written again, ${formatCount(again.length)})`;
}

/** How a workbook differs from the one written again: parts it has that Custos does not write, a shared string no released record carries, or which part. */
function workbookDifference(path: string, againPath: string): string {
  try {
    const actual = readFileSync(path);
    const again = readFileSync(againPath);
    const parts = zipEntries(actual);
    const expected = zipEntries(again);
    const names = new Set(expected.map((e) => e.name));
    const extra = parts.filter((e) => !names.has(e.name)).map((e) => e.name);
    if (extra.length > 0 || parts.length !== expected.length) return `it holds parts Custos does not write (${extra.join(', ') || 'a part twice'})`;
    const strings = (bytes: Buffer, entries: ReturnType<typeof zipEntries>): number => Number(/uniqueCount="(\d+)"/.exec(zipEntryText(bytes, entries.find((e) => e.name === 'xl/sharedStrings.xml')!, 4096))?.[1] ?? -1);
    const held = strings(actual, parts);
    const carried = strings(again, expected);
    if (held > carried) return `its shared strings hold ${held - carried} value(s) that no released record or report cell carries`;
    const differing = expected.filter((e) => zipEntryText(actual, parts.find((p) => p.name === e.name)!) !== zipEntryText(again, e)).map((e) => e.name);
    return differing.length > 0 ? `its ${differing.join(', ')} differ from what Custos writes` : 'the same parts and contents, compressed or laid out differently (verify with the Custos version that wrote it)';
  } catch (error) {
    return `it is not a workbook Custos writes (${(error as Error).message})`;
  }
}
