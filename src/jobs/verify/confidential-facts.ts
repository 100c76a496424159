import { basename, dirname, extname, isAbsolute } from 'node:path';
import type { Report } from '../../common/report/report-model.js';
import type { Job } from '../../mechanisms/definitions.js';
import { externalVariant } from '../report-builder.js';
import { publicHierarchyName, publicInputName } from '../public-job.js';

/**
 * A fact about the confidential input that the release folder must not state. `kind` says what it
 * is in words a finding may print; the value itself is never printed (a finding is pasted into
 * mails and tickets).
 */
export interface ConfidentialFact {
  readonly kind: string;
  /**
   * A whole number, searched in every way the reports print one. In a PDF it is searched in the text
   * the PDF shows and its metadata, not in its raw bytes: those are numbers of every size (object
   * lengths, offsets, glyph widths) that a fact among many four-digit counts meets by chance (a page
   * stream's /Length, which changes with the date printed on it, once equalled a count and failed an
   * honest release). A number hidden in a PDF's bytes and not shown is a PDF that verify's re-rendering
   * (byte for byte from report.json) rejects.
   */
  readonly number?: number;
  /** A text, searched verbatim (HTML- and JSON-escaped too, whitespace runs as one space). */
  readonly text?: string;
  /** A hash, searched without case or separators. */
  readonly sha256?: string;
  /**
   * An input encoding ("utf-8" is too common a word to search on its own: the HTML's charset, the
   * output's encoding): searched as the reports state the input's, an `input` object's `encoding`
   * in JSON and the format line ("csv, utf-8") elsewhere.
   */
  readonly encoding?: true;
  /** Searched as a whole word only (a base name "sales" is not found in "wholesales"). */
  readonly wholeWord?: true;
  /**
   * Whether the fact is looked for in the cells of released tables. A path, a file name or a hash is
   * never data; a number or a base name may be a value of the data, where it says nothing of the input
   * (see `findInTable`).
   */
  readonly inCells: boolean;
}

/**
 * Numbers below this are too common to search for without false alarms (k, ℓ, parameters, small
 * counts, years of the data are all ≥ 4 digits only rarely): only whole numbers of at least four
 * digits are searched. Fractions are not searched either: the reports round them in many ways.
 */
export const SMALLEST_SEARCHED_NUMBER = 1000;

/** Base names shorter than this ("data", "a1") are ordinary words; they are not searched. */
const SHORTEST_SEARCHED_NAME = 5;

/** The input's or a hierarchy's file, as texts to search: its path, its folder, its name, the name without extension. */
export function fileFacts(path: string, what: 'input' | 'hierarchy'): ConfidentialFact[] {
  const facts: ConfidentialFact[] = [];
  const name = basename(path.replace(/\\/g, '/'));
  const isPublic = (n: string): boolean => (what === 'input' ? publicInputName(n) : publicHierarchyName(n)) === n;
  const owner = what === 'input' ? "the input's" : "a hierarchy file's";
  if (isAbsolute(path) || /[/\\]/.test(path)) {
    facts.push({ kind: `${owner} path`, text: path, inCells: true });
    const folder = dirname(path);
    if (folder.length > 3) facts.push({ kind: `${owner} folder`, text: folder, inCells: true });
  }
  if (name.length >= SHORTEST_SEARCHED_NAME && !isPublic(name.toLowerCase())) {
    facts.push({ kind: `${owner} file name`, text: name, inCells: true });
    const stem = name.slice(0, name.length - extname(name).length);
    if (stem !== name && stem.length >= SHORTEST_SEARCHED_NAME && !isPublic(`${stem.toLowerCase()}${extname(name).toLowerCase()}`)) {
      facts.push({ kind: `${owner} base name`, text: stem, wholeWord: true, inCells: false });
    }
  }
  return facts;
}

/** Subtrees of the internal report whose texts are values of the data (a group's values, a label, a query over values): never searched as text. */
const DATA_VALUED = new Set(['variables', 'riskiestGroups', 'distribution', 'answers', 'values', 'frontier', 'levels']);
/** Keys reported by their own checks (the CONFIDENTIAL mark) or searched as a file (paths, the job). */
const SEPARATE = new Set(['confidential', 'job', 'path', 'sha256', 'sheet', 'encoding']);

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

function walk(value: Json, path: string, visit: (path: string, value: number | string) => void): void {
  if (typeof value === 'number' || typeof value === 'string') visit(path, value);
  else if (Array.isArray(value)) value.forEach((v, i) => walk(v as Json, `${path}[${i}]`, visit));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v as Json, path ? `${path}.${k}` : k, visit);
}

/** The whole numbers a text states (1,234 and 1 234 read as 1234). */
function numbersIn(text: string): number[] {
  return [...text.matchAll(/\d{1,3}(?:[,\u00a0\u202f\u2009 ]\d{3})+(?!\d)|\d+/g)].map((m) => Number(m[0].replace(/\D/g, '')));
}

/** A path without its array indices: `anonymity.parts[1].size` → `anonymity.parts[].size`. */
const shape = (path: string): string => path.replace(/\[\d+\]/g, '[]');

/**
 * What the internal report marks internal-only: the figures and texts it holds that the public
 * report does not. A number is public when the public report holds it at a field of the same name
 * as the internal report does (`output.rows` in both, say: the released size) or inside a sentence
 * both reports print, or when a released table has that many records; anything else the internal
 * report states is internal-only.
 *
 * The public report compared with is rebuilt from the internal one (`externalVariant`), never read
 * from the release folder, so a report.json edited to hold a fact does not make the fact public. Only
 * its sentences (summary, warnings) cannot be rebuilt: `publicSentences` are those Custos wrote into
 * the release (the caller takes them from files whose checksums the internal report lists).
 */
export function internalOnlyFacts(internal: Report, publicSentences: ReadonlySet<string>, releasedRowCounts: readonly number[]): ConfidentialFact[] {
  const external = externalVariant(internal, { summary: [...publicSentences], warnings: [], job: internal.job as unknown as Job });
  const publicNumbers = new Set<number>(releasedRowCounts);
  const externalByShape = new Map<string, Set<number | string>>();
  walk(external as unknown as Json, '', (p, v) => {
    const key = shape(p);
    if (!externalByShape.has(key)) externalByShape.set(key, new Set());
    externalByShape.get(key)!.add(v);
  });
  const externalStrings = new Set<string>(publicSentences);
  walk(external as unknown as Json, '', (_, v) => {
    if (typeof v === 'string') externalStrings.add(v);
  });
  walk(internal as unknown as Json, '', (p, v) => {
    if (externalByShape.get(shape(p))?.has(v)) {
      if (typeof v === 'number') publicNumbers.add(v);
      else for (const n of numbersIn(v)) publicNumbers.add(n);
    }
  });
  const facts: ConfidentialFact[] = [];
  const seenNumbers = new Set<number>();
  const seenTexts = new Set<string>();
  const visit = (path: string, v: number | string): void => {
    const keys = path.split(/[.[\]]+/).filter(Boolean);
    if (keys.some((k) => SEPARATE.has(k)) && keys[0] !== 'summary' && keys[0] !== 'warnings') return;
    // The release's own files: their sizes and rows are facts of the release.
    if (path.startsWith('output.files')) return;
    // The analysis's contingency cells are searched below (analysisCellFacts), not as figures here.
    if (path.startsWith('utility.analysis.tables') && keys.includes('cells')) return;
    if (typeof v === 'number') {
      if (!Number.isInteger(v) || Math.abs(v) < SMALLEST_SEARCHED_NUMBER || publicNumbers.has(v) || seenNumbers.has(v)) return;
      seenNumbers.add(v);
      facts.push({ kind: path === 'input.rows' ? "the input's record count" : `an internal-only figure (${shape(path)})`, number: v, inCells: true });
      return;
    }
    if (keys.some((k) => DATA_VALUED.has(k))) return;
    // Texts: sentences only (a short string may be a value of the data or an ordinary word).
    if (externalStrings.has(v) || seenTexts.has(v) || v.length < 24 || !/\s/.test(v.trim())) return;
    // Beyond the summary and the warnings, a sentence is a fact of the input only where it states a figure.
    if (keys[0] !== 'summary' && keys[0] !== 'warnings' && !/\d/.test(v)) return;
    seenTexts.add(v);
    const kind = keys[0] === 'summary' ? 'an internal-only summary sentence' : keys[0] === 'warnings' ? 'an internal-only warning' : `an internal-only text (${shape(path)})`;
    facts.push({ kind, text: v, inCells: true });
  };
  // The input's size first, so that a column whose every value is distinct is not what names that number.
  if (internal.input.rows !== undefined) visit('input.rows', internal.input.rows);
  walk(internal as unknown as Json, '', visit);
  // A cell is searched only where no figure of the public report equals it, wherever that figure
  // stands (a released distribution's count, a file's size): a table of up to 144 counts meets the
  // report's other figures by chance often enough to fail honest releases.
  // From what the walks above collected: the external report's numbers, its texts and the public sentences.
  const anyPublicNumber = new Set<number>(publicNumbers);
  for (const values of externalByShape.values()) for (const v of values) if (typeof v === 'number') anyPublicNumber.add(v);
  for (const text of externalStrings) for (const n of numbersIn(text)) anyPublicNumber.add(n);
  facts.push(...analysisCellFacts(internal, anyPublicNumber));
  const input = internal.input;
  const job = internal.job as { input?: { encoding?: unknown }; method?: { hierarchies?: Record<string, unknown> }; output?: { internalDir?: unknown } };
  // An encoding the job names is a parameter, published in job.json; a detected one is a fact of the file.
  if (input.encoding && external.input.encoding === undefined && job.input?.encoding !== input.encoding) facts.push({ kind: "the input's detected encoding", text: input.encoding, encoding: true, inCells: false });
  if (input.sheet && input.sheet.length >= SHORTEST_SEARCHED_NAME && !/^sheet\s*\d*$/i.test(input.sheet)) facts.push({ kind: "the input's sheet name", text: input.sheet, inCells: false });
  if (input.sha256) facts.push({ kind: "the input's SHA-256", sha256: input.sha256, inCells: true });
  if (input.path) facts.push(...fileFacts(input.path, 'input'));
  for (const spec of Object.values(job.method?.hierarchies ?? {})) if (typeof spec === 'string') facts.push(...fileFacts(spec, 'hierarchy'));
  if (typeof job.output?.internalDir === 'string' && /[/\\]/.test(job.output.internalDir)) facts.push({ kind: "the internal report's folder", text: job.output.internalDir, inCells: true });
  return dedupe(facts);
}

/**
 * The input's side of the analysis's contingency tables: a cell of the input that the release's table
 * at the same place does not equal is a count of the confidential input. Searched in the report texts
 * and files, not in released cells: a table of up to 144 counts would otherwise meet ordinary values
 * of the data by chance. A cell the release holds too is a count anyone can take from the release.
 */
function analysisCellFacts(internal: Report, publicNumbers: ReadonlySet<number>): ConfidentialFact[] {
  const analysis = internal.utility.analysis;
  if (!analysis || !('tables' in analysis)) return [];
  const facts: ConfidentialFact[] = [];
  analysis.tables.forEach((table, t) => {
    if (!('cells' in table) || !table.cells) return;
    const released = table.cells.release;
    table.cells.input.forEach((n, i) => {
      if (!Number.isInteger(n) || n < SMALLEST_SEARCHED_NUMBER || n === released[i] || publicNumbers.has(n)) return;
      facts.push({ kind: `an internal-only figure (utility.analysis.tables[${t}].cells.input)`, number: n, inCells: false });
    });
  });
  return facts;
}

/** One fact per value: a base name that equals another fact's text, say, is reported once. */
function dedupe(facts: readonly ConfidentialFact[]): ConfidentialFact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const key = `${f.number ?? ''}|${f.text ?? ''}|${f.sha256 ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * What the original file tells without the internal report: its path, folder, names, checksum and
 * its record count. The count is searched only where the release does not show it by design.
 *
 * The rule: a differentially private method's guarantee covers no exact statistic of the input, its
 * size included, so the count is always searched. Every other method publishes records (not noisy
 * answers), and its guarantee is about what those records reveal; the release's size is there for
 * anyone to count, so a released table holding exactly the input's number of records (uniform
 * perturbation, β-privacy's QIT, microaggregation, a recoding that deleted nothing) publishes it by
 * design, and it is not searched. Where no released table has that size (records were sampled,
 * suppressed or deleted: reconstruction privacy's sampled groups, recoding with suppression,
 * partitioned recoding), the count together with the release gives the number of records removed,
 * which those methods keep internal; it is searched.
 */
export function originalFacts(original: { readonly path: string; readonly rows: readonly number[]; readonly sha256: string }, differentiallyPrivate: boolean, releasedRowCounts: readonly number[]): ConfidentialFact[] {
  const facts: ConfidentialFact[] = [{ kind: "the input's SHA-256", sha256: original.sha256, inCells: true }, ...fileFacts(original.path, 'input')];
  for (const rows of new Set(original.rows)) {
    if (rows < SMALLEST_SEARCHED_NUMBER) continue;
    if (!differentiallyPrivate && releasedRowCounts.includes(rows)) continue;
    facts.push({ kind: "the input's record count", number: rows, inCells: true });
  }
  return dedupe(facts);
}

export const mergeFacts = (...lists: readonly ConfidentialFact[][]): ConfidentialFact[] => dedupe(lists.flat());
