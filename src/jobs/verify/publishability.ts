import { readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import type { SearchablePart } from '../../io/input/searchable-text.js';
import { REPORT_SHEETS, type ReleaseFiles } from './release-files.js';
import { collapse, SearchedText } from './searched-text.js';
import { parquetTableAndFooter } from '../../io/input/parquet-reader.js';
import { readTable } from '../../io/input/read-table.js';
import { CONFIDENTIAL_MARK, REPORT_SCHEMA, type Report } from '../../common/report/report-model.js';
import { esc } from '../../common/report/format.js';
import type { Table } from '../../common/table/table.js';
import { publicHierarchyName, publicInputName } from '../public-job.js';
import { parseReport } from '../../mechanisms/report-schema.js';
import type { ConfidentialFact } from './confidential-facts.js';
import { RELEASED_TABLE_OPTIONS } from '../method-kit/released-table.js';

function isBareName(path: unknown): boolean {
  return typeof path !== 'string' || (path === basename(path) && !path.includes('\\'));
}

/** The public job names the input and its hierarchies generically (public-job.ts): any other name is the custodian's label. */
const isPublicInputName = (name: string): boolean => publicInputName(name) === name;
const isPublicHierarchyName = (name: string): boolean => publicHierarchyName(name) === name;

function internalFieldsOfJob(job: unknown): string[] {
  const found: string[] = [];
  const j = (job ?? {}) as { input?: { sha256?: unknown; path?: unknown; sheet?: unknown }; output?: { internalDir?: unknown; dir?: unknown; variant?: unknown }; method?: { hierarchies?: unknown } };
  if (j.input?.sha256 !== undefined) found.push('job input.sha256');
  if (j.input?.sheet !== undefined) found.push('job input.sheet');
  if (typeof j.input?.path === 'string' && !isPublicInputName(j.input.path)) found.push(`job input.path names the input file (${isBareName(j.input.path) ? 'its name' : 'a folder'})`);
  if (j.output?.internalDir !== undefined) found.push('job output.internalDir');
  if (!isBareName(j.output?.dir)) found.push('job output.dir names a folder');
  const variant = j.output?.variant;
  if (variant === 'internal' || (Array.isArray(variant) && variant.includes('internal'))) found.push('job output.variant says "internal"');
  const hierarchies = j.method?.hierarchies;
  if (typeof hierarchies === 'object' && hierarchies !== null) {
    for (const [column, spec] of Object.entries(hierarchies)) if (typeof spec === 'string' && !isPublicHierarchyName(spec)) found.push(`job hierarchy of “${column}” names its file`);
  }
  return found;
}

/** Formats whose files hold released tables: their cells may hold any value of the data. */
const TABLE_FORMATS = new Set(['.csv', '.parquet', '.sav', '.dta', '.xpt']);

const GROUP_SEPARATORS = [',', ' ', '\u00a0', '\u202f', '\u2009'];

/** A whole number in every way a report prints it: 30162, 30,162, 30 162 (also with a no-break or thin space). */
function numberPattern(n: number): RegExp {
  const digits = String(Math.abs(Math.trunc(n)));
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3) groups.unshift(digits.slice(Math.max(0, end - 3), end));
  const alternatives = [digits, ...(groups.length > 1 ? GROUP_SEPARATORS.map((sep) => groups.join(sep)) : [])];
  // Not part of a longer number, a word or a hash (no letter or digit either side), nor of a decimal or a longer grouped number.
  return new RegExp(`(?<![\\p{L}\\p{N}_]|\\d\\.)(?:${[...new Set(alternatives)].join('|')})(?![\\p{L}\\p{N}_]|\\.\\d|[, \\u00a0\\u202f\\u2009]\\d{3}(?!\\d))`, 'u');
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The ways a text may be written into a file: as it is, escaped for HTML, JSON or a CSV cell. */
function textVariants(text: string): string[] {
  const plain = collapse(text);
  return [...new Set([plain, esc(plain), JSON.stringify(plain).slice(1, -1), plain.replace(/"/g, '""')])];
}

/** Each fact's test, built once: a release's cells are tested one by one, and building a pattern per cell took most of verify's time on a large release. */
const testers = new WeakMap<ConfidentialFact, (text: SearchedText) => boolean>();

/** Whether `text` (a file's text, or a column name or cell) states the fact. */
function states(fact: ConfidentialFact, text: SearchedText): boolean {
  let test = testers.get(fact);
  if (!test) testers.set(fact, (test = testerOf(fact)));
  return test(text);
}

function testerOf(fact: ConfidentialFact): (text: SearchedText) => boolean {
  if (fact.sha256) {
    const hash = fact.sha256.toLowerCase();
    return (text) => text.lower.includes(hash) || text.lowerUnseparated.includes(hash);
  }
  if (fact.number !== undefined) {
    const pattern = numberPattern(fact.number);
    return (text) => pattern.test(text.raw);
  }
  const factText = fact.text;
  if (factText === undefined) return () => false;
  if (fact.encoding) return (text) => statesInputEncoding(text.raw, factText);
  const variants = textVariants(factText);
  if (fact.wholeWord) {
    const patterns = variants.map((variant) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(variant)}(?![\\p{L}\\p{N}])`, 'u'));
    return (text) => patterns.some((pattern) => pattern.test(text.flat));
  }
  return (text) => variants.some((variant) => text.flat.includes(variant));
}

/** Whether a JSON text has an `input` object with this encoding, or another text a format line "csv, utf-8" with it. */
function statesInputEncoding(text: string, encoding: string): boolean {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      let found = false;
      JSON.parse(trimmed, function (this: Record<string, unknown>, key, value: unknown) {
        if (key === 'encoding' && value === encoding && Object.hasOwn(this, 'format')) found = true;
        if (key === 'input' && typeof value === 'object' && value !== null && (value as { encoding?: unknown }).encoding === encoding) found = true;
        return value;
      });
      return found;
    } catch {
      // Not JSON after all: searched as text.
    }
  }
  const stripped = text.replace(/<[^>]*>/g, ' ');
  return new RegExp(`\\b(?:csv|tsv|txt|xlsx|sav|dta|xpt|sas7bdat|parquet)\\s*,\\s*${escapeRegExp(encoding)}(?![\\w-])`, 'i').test(stripped);
}

/** A cell that is one plain number: a value of a numeric column. */
const PLAIN_NUMBER = /^[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/**
 * The facts a released table states outside its data: in a column name, in a cell that holds a
 * fact's text, or in a cell of text holding a fact's number ("30,162 records"). A cell that is
 * just a number, in a column of numbers, is a value of the data (an age, a weight, a noisy answer):
 * the data may hold any number, and such a cell is not flagged. Base names and labelled facts are
 * not looked for in cells (a file's base name may well be a value of the data).
 */
function findInTable(table: Table, facts: readonly ConfidentialFact[]): ConfidentialFact[] {
  const found = new Set<ConfidentialFact>();
  for (const column of table.columns) {
    const name = new SearchedText(column.name);
    for (const fact of facts) if (states(fact, name)) found.add(fact);
    const numeric = column.dictionary.every((v) => !/\d/.test(v) || PLAIN_NUMBER.test(v.trim()));
    for (const value of column.dictionary) {
      const cell = new SearchedText(value);
      for (const fact of facts) {
        if (!fact.inCells || found.has(fact)) continue;
        if (fact.number !== undefined && numeric && PLAIN_NUMBER.test(value.trim())) continue;
        if (states(fact, cell)) found.add(fact);
      }
    }
  }
  return [...found];
}

/** The released tables of a file, or null when it holds none (a report, job.json, a note someone added). */
function tablesOf(path: string, name: string, delimiter: string, parts: readonly SearchablePart[]): { tables: Table[]; text: string } | null {
  const ext = extname(name).toLowerCase();
  if (ext === '.xlsx') {
    const tables = parts.filter((p) => p.sheet !== null && !REPORT_SHEETS.has(p.sheet)).map((p) => p.table!());
    // The workbook's properties, sheet names and report sheets are text.
    const text = parts.filter((p) => p.sheet === null || REPORT_SHEETS.has(p.sheet)).map((p) => p.text).concat(parts.filter((p) => p.sheet !== null).map((p) => p.sheet!)).join('\n');
    return { tables, text };
  }
  if (!TABLE_FORMATS.has(ext)) return null;
  if (ext === '.parquet') {
    // Besides its cells, a Parquet file's footer holds strings.
    const { table, footer } = parquetTableAndFooter(path);
    return { tables: [table], text: footer };
  }
  const table = readTable(path, { ...(ext === '.csv' ? { delimiter } : {}), ...RELEASED_TABLE_OPTIONS }).table;
  // Besides its cells, a statistical file's header holds strings (its label, the writer's notes).
  const raw = ext === '.csv' ? '' : readFileSync(path).toString('latin1');
  return { tables: [table], text: raw };
}

/**
 * Why the release folder may not be published as it is, one line per problem: an internal report
 * or its mark, internal-only fields in report.json or job.json, and any confidential fact (from
 * the internal report, the original file or both: see confidential-facts.ts) that a file states.
 * A finding names the file and the kind of fact, never its value.
 */
export function publishabilityProblems(files: ReleaseFiles, report: Report, job: unknown, factsOf: (releasedRowCounts: readonly number[]) => readonly ConfidentialFact[], delimiter = ','): string[] {
  // The external report's schema is the list of what may be published: any other field is internal.
  const parsed = parseReport(report, 'external');
  const problems: string[] = [...(parsed.ok ? [] : parsed.problems.map((p) => `report.json has ${p}`)), ...internalFieldsOfJob(job).map((f) => `job.json has ${f}`)];
  const read: { name: string; text: string; tables: ReturnType<typeof tablesOf>; shown: string | undefined }[] = [];
  for (const name of readdirSync(files.dir)) {
    const path = join(files.dir, name);
    try {
      const parts = files.parts(name);
      const text = parts.map((p) => p.text).join('\n');
      if (text.includes(CONFIDENTIAL_MARK) || text.includes('CONFIDENTIAL internal') || /"variant":\s*"internal"/.test(text) || ['custos.report/1', REPORT_SCHEMA].some((schema) => text.includes(`${schema} internal`))) {
        problems.push(`${name} holds (part of) an internal report`);
      }
      let tables: ReturnType<typeof tablesOf> = null;
      try {
        tables = tablesOf(path, name, delimiter, parts);
      } catch {
        // Not a table after all (a CSV with a note line, say): all of it is searched as text.
        tables = null;
      }
      const shown = parts.find((p) => p.shown !== undefined)?.shown;
      read.push({ name, text, tables, shown });
    } catch (error) {
      problems.push(`${name} cannot be read to check it (${(error as Error).message})`);
    }
  }
  // The released tables' sizes, as the files show them (not as report.json says).
  const facts = factsOf(read.flatMap((f) => f.tables?.tables.map((t) => t.rowCount) ?? []));
  for (const { name, text: raw, tables, shown } of read) {
    const text = new SearchedText(raw);
    // A PDF's text as read back, without the raw bytes its part begins with: where numbers are searched (see ConfidentialFact.number).
    const pdfOnly = shown === undefined ? undefined : new SearchedText(shown);
    const outside = tables && new SearchedText(tables.text);
    const found = outside
      ? new Set([...facts.filter((f) => states(f, outside) || (f.inCells && f.number === undefined && states(f, text))), ...tables.tables.flatMap((t) => findInTable(t, facts))])
      : new Set(facts.filter((f) => states(f, f.number !== undefined && pdfOnly ? pdfOnly : text)));
    // One line per kind: several true counts of one field are one finding.
    for (const kind of new Set(facts.filter((f) => found.has(f)).map((f) => f.kind))) problems.push(`${name} states ${kind}`);
  }
  return problems;
}
