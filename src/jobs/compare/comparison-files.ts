import { lstatSync, renameSync, writeFileSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';
import { riskErrorChart } from '../../common/compare/chart.js';
import { cannotRunText, COMMON_POOL_ERROR, COMMON_POOL_ERROR_WORDS, TWO_ERRORS, type CandidateResult, type Comparison, type SkippedCandidate } from '../../common/compare/comparison.js';
import { esc } from '../../common/report/format.js';
import { HashedFileWriter } from '../../io/output/hashed-file.js';
import { manifestJson, MANIFEST } from '../../io/output/manifest.js';
import { checkNotAroundInputs, checkNotInsideCustosFolder, checkOutputDir, commitStaged, OutputDirError, StagingDir } from '../../io/output/staging-dir.js';
import { csvText } from '../../io/output/neutralize.js';
import { CsvTokenizer } from '../../io/input/csv-tokenizer.js';
import type { ExtraPdfSection } from '../../io/report/report-pdf.js';
import { JobError } from '../../common/job/job-error.js';
import { formatCount } from '../../common/format/numbers.js';

const percent = (v: number): string => (Number.isFinite(v) ? `${(100 * v).toFixed(2)}%` : 'n/a');
const error = (v: number | undefined): string => (v === undefined ? 'n/a' : v.toFixed(4));

/** The table's columns, shared by the terminal, the CSV and the HTML page. */
export const TABLE_HEADER = ['#', 'candidate', 'method', 'parameters', 'guarantee', 'risk', COMMON_POOL_ERROR, 'frontier'] as const;
/** The header of exports written before the error had its own name: still recognised as Custos's. */
const EARLIER_HEADER = ['#', 'candidate', 'method', 'parameters', 'guarantee', 'risk', 'utility error', 'frontier'];

/** Every candidate in the order given: those compared, and those that could not run in their place, said so with the reason. */
export function tableEntries(comparison: Comparison): ({ readonly ran: CandidateResult } | { readonly skipped: SkippedCandidate })[] {
  const all = [...comparison.candidates.map((ran) => ({ id: ran.id, entry: { ran } })), ...comparison.skipped.map((skipped) => ({ id: skipped.id, entry: { skipped } }))];
  return all.sort((a, b) => a.id - b.id).map((e) => e.entry);
}

export function tableRows(comparison: Comparison): string[][] {
  return tableEntries(comparison).map((e) => {
    if ('skipped' in e) {
      const s = e.skipped;
      return [String(s.id), s.label, s.method?.title ?? '', s.grid.map((g) => `${g.key} ${g.value}`).join(', '), cannotRunText(s), 'n/a', 'n/a', ''];
    }
    const c = e.ran;
    return [String(c.id), c.label, c.method.title, c.parameters, c.guarantee.label, percent(c.risk.share), error(c.utility.relativeError), c.frontier ? '✓' : ''];
  });
}

/** The chart's caption on the candidates it cannot place: they could not run. */
function notPlaced(comparison: Comparison): string {
  const skipped = comparison.skipped;
  return skipped.length ? ` Not placed (${esc(skipped.map((s) => `${s.id}. ${s.label}: ${cannotRunText(s)}`).join('; '))}).` : '';
}

/** The comparison in a confidential HTML page: the mark, the warning about choosing, the chart, the table, each measure. */
export function comparisonHtml(comparison: Comparison): string {
  const rows = tableRows(comparison).map((r) => `<tr>${r.map((cell) => `<td>${esc(cell)}</td>`).join('')}</tr>`).join('\n');
  const measures = comparison.candidates.map((c) => `<li><strong>${c.id}. ${esc(c.label)}</strong> — risk: ${esc(c.risk.measure)}. Utility: ${esc(c.utility.estimator)}. Guarantee: ${esc(c.guarantee.statement)}</li>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Comparison of candidate jobs — CONFIDENTIAL</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem;max-width:70rem}.confidential{background:#b3261e;color:#fff;padding:.5rem 1rem;font-weight:bold}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}.warning{border-left:4px solid #b3261e;padding-left:1rem}</style></head>
<body>
<div class="confidential" role="alert">${esc(comparison.confidential)}</div>
<h1>Comparison of ${comparison.candidates.length} candidate jobs${comparison.skipped.length ? ` (${comparison.skipped.length} more could not run)` : ''}</h1>
<p>Input: ${esc(comparison.input.path)} (${formatCount(comparison.input.rows)} records, SHA-256 ${esc(comparison.input.sha256)}). Created ${esc(comparison.createdAt)}, Custos ${esc(comparison.software.version)}${comparison.testRandomness ? '; TEST RANDOMNESS: not a protected release' : ''}.</p>
<p class="warning">${esc(comparison.notes[0] ?? '')}</p>
<figure>${riskErrorChart(comparison.candidates)}<figcaption>Risk against error; filled points lie on the non-dominated frontier (no other candidate has lower risk and no higher error, or lower error and no higher risk).${notPlaced(comparison)}</figcaption></figure>
<table><thead><tr>${TABLE_HEADER.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>
${rows}
</tbody></table>
<h2>Measures</h2>
<p>Utility (${esc(COMMON_POOL_ERROR)}: the ${esc(COMMON_POOL_ERROR_WORDS)}): ${esc(comparison.pool.description)}. ${formatCount(comparison.pool.queries)} queries over ${esc(comparison.pool.columns.join(', '))}.</p>
<p>${esc(TWO_ERRORS)}</p>
<ul>${measures}</ul>
<h2>Notes</h2>
<ul>${comparison.notes.slice(1).map((n) => `<li>${esc(n)}</li>`).join('')}</ul>
</body></html>
`;
}

/**
 * The comparison as a section of a run's internal HTML report: marked
 * confidential, the warning about choosing, the chart and the table; the
 * measures and notes are in comparison.html beside it.
 */
export function comparisonSectionHtml(comparison: Comparison): string {
  const rows = tableRows(comparison).map((r) => `<tr>${r.map((cell) => `<td>${esc(cell)}</td>`).join('')}</tr>`).join('\n');
  return `<section class="comparison" aria-labelledby="comparison-heading">
<h2 id="comparison-heading">Comparison the setting was chosen from (confidential)</h2>
<div class="confidential">${esc(comparison.confidential)}</div>
<p>${comparison.candidates.length} candidates measured${comparison.skipped.length ? ` (${comparison.skipped.length} more could not run)` : ''} on this input with ${formatCount(comparison.pool.queries)} count queries, ${esc(comparison.createdAt)}. The measures and notes are in comparison.html beside this report.</p>
<p>${esc(TWO_ERRORS)}</p>
<p class="warn">${esc(comparison.notes[0] ?? '')}</p>
<figure>${riskErrorChart(comparison.candidates)}<figcaption>Risk against error; filled points lie on the non-dominated frontier.${notPlaced(comparison)}</figcaption></figure>
<table><thead><tr>${TABLE_HEADER.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>
${rows}
</tbody></table>
</section>`;
}

/** The comparison as the internal PDF's last section: the same table as the HTML's (the chart stays in HTML). */
export function comparisonPdfSection(comparison: Comparison): ExtraPdfSection {
  return {
    title: 'Comparison the setting was chosen from (confidential)',
    paragraphs: [
      comparison.confidential,
      `${comparison.candidates.length} candidates measured${comparison.skipped.length ? ` (${comparison.skipped.length} more could not run)` : ''} on this input with ${formatCount(comparison.pool.queries)} count queries, ${comparison.createdAt}. The chart, the measures and the notes are in comparison.html beside this report.`,
      ...(comparison.notes[0] ? [comparison.notes[0]] : []),
      TWO_ERRORS,
    ],
    header: TABLE_HEADER,
    rows: tableRows(comparison),
    widths: [3, 14, 14, 20, 22, 8, 9, 8],
  };
}

/** The comparison as a sheet of the internal workbook, starting with the confidential mark as every internal sheet does. */
export function comparisonSheetRows(comparison: Comparison): string[][] {
  return [[comparison.confidential], [TWO_ERRORS], [...TABLE_HEADER], ...tableRows(comparison)];
}

function csvCell(value: string): string {
  const guarded = csvText(value);
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** The table as CSV: its first row is the confidential mark, as every sheet of an internal report starts. */
export function comparisonCsv(comparison: Comparison): string {
  const entries = tableEntries(comparison);
  const lines = [[comparison.confidential], [...TABLE_HEADER, 'risk share', 'relative error', 'risk measure'], ...tableRows(comparison).map((r, i) => {
    const e = entries[i]!;
    if ('skipped' in e) return [...r, '', '', ''];
    const c = e.ran;
    return [...r, String(c.risk.share), c.utility.relativeError === undefined ? '' : String(c.utility.relativeError), c.risk.measure];
  })];
  return lines.map((l) => l.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** The largest earlier export Custos reads to recognise it: far above a comparison's table. */
const MAX_EXPORT_BYTES = 64 * 1024 * 1024;

/**
 * Whether a file is an export Custos wrote and nobody changed: the mark, the header, and rows of the
 * header's width only. A line a person added (notes, a total) makes it theirs.
 */
function isUnchangedExport(path: string, mark: string): boolean {
  if (statSync(path).size > MAX_EXPORT_BYTES) return false;
  const rows: string[][] = [];
  try {
    const tokenizer = new CsvTokenizer(',', { record: (fields, count) => rows.push(fields.slice(0, count)) });
    tokenizer.feed(readFileSync(path, 'utf8'), true);
  } catch {
    return false;
  }
  const header = [...TABLE_HEADER, 'risk share', 'relative error', 'risk measure'];
  const earlier = [...EARLIER_HEADER, 'risk share', 'relative error', 'risk measure'];
  return rows.length >= 2 && rows[0]!.length === 1 && rows[0]![0] === mark && [header, earlier].some((h) => rows[1]!.join('\u0000') === h.join('\u0000')) && rows.slice(2).every((r) => r.length === header.length && /^\d+$/.test(r[0]!));
}

/**
 * Where the CSV export may not go, checked before a comparison starts and again when it is written:
 * onto an input, onto a link or a folder, or inside a folder Custos wrote (a release's would publish it).
 */
export function checkComparisonCsvPlace(path: string, inputs: readonly string[]): void {
  if (inputs.some((input) => input === path)) throw new JobError(`--csv ${path} is an input of the comparison`, '--csv');
  const link = lstatSync(path, { throwIfNoEntry: false });
  if (link?.isSymbolicLink()) throw new JobError(`--csv ${path} is a symbolic link; name the file itself`, '--csv');
  if (link && !link.isFile()) throw new JobError(`--csv ${path} exists and is not a file`, '--csv');
  try {
    checkNotInsideCustosFolder(path, `--csv ${path}`);
  } catch (error) {
    if (error instanceof OutputDirError) throw new JobError(error.message, '--csv');
    throw error;
  }
}

/**
 * Writes the CSV export atomically (a temporary name, then a rename). A file
 * already there is replaced only if it is an earlier export, unchanged (its mark,
 * header and rows as Custos writes them); anything else is the user's, and so is
 * a symbolic link, which is never followed nor replaced.
 */
export function writeComparisonCsv(path: string, comparison: Comparison, inputs: readonly string[], onStaging?: (path: string) => void): void {
  checkComparisonCsvPlace(path, inputs);
  if (lstatSync(path, { throwIfNoEntry: false }) && !isUnchangedExport(path, comparison.confidential)) throw new JobError(`--csv ${path} exists and is not a comparison Custos wrote, unchanged; choose another name or remove it yourself`, '--csv');
  const temporary = join(dirname(path), `.${basename(path)}.custos-tmp-${randomBytes(6).toString('hex')}`);
  onStaging?.(temporary);
  try {
    writeFileSync(temporary, comparisonCsv(comparison), { flag: 'wx' });
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}

function writeText(path: string, text: string): { sha256: string; bytes: number } {
  const out = new HashedFileWriter(path);
  out.write(text);
  return out.close();
}

/** What the internal report of a run says of the comparison its setting was chosen from: where it is, and what the choice means. */
export function comparisonWarning(comparison: Comparison): string {
  return (
    `This setting was chosen on the Compare step among ${comparison.candidates.length} candidates measured on this input (${comparison.createdAt}); ` +
    `the comparison is its own confidential section beside this report (comparison.html, comparison.json, comparison.csv) and is not in the release. ${comparison.notes[0] ?? ''}`
  ).trim();
}

/**
 * The comparison's files (comparison.json, .html, .csv) in a staged internal
 * folder: the `--internal` folder of `custos compare`, or a run's internal
 * folder when the app's setting was chosen from a comparison.
 */
export function writeComparisonSection(staging: StagingDir, comparison: Comparison): { name: string; sha256: string; bytes: number }[] {
  return [
    { name: 'comparison.json', ...writeText(staging.file('comparison.json'), JSON.stringify(comparison, null, 2) + '\n') },
    { name: 'comparison.html', ...writeText(staging.file('comparison.html'), comparisonHtml(comparison)) },
    { name: 'comparison.csv', ...writeText(staging.file('comparison.csv'), comparisonCsv(comparison)) },
  ];
}

/**
 * The comparison as an internal folder (comparison.json, comparison.html and
 * the manifest), staged and renamed into place as a run's internal report is;
 * a folder Custos did not write is never replaced, nor one holding an input.
 */
export function writeComparisonFolder(dir: string, comparison: Comparison, inputs: readonly string[], onStaging?: (path: string) => void): void {
  checkComparisonFolderPlace(dir, inputs);
  let staging: StagingDir | undefined;
  try {
    staging = new StagingDir(dir, 'comparison', onStaging);
    const files = writeComparisonSection(staging, comparison);
    writeFileSync(staging.file(MANIFEST), manifestJson('comparison', files), { flag: 'wx' });
    commitStaged([staging]);
  } catch (error) {
    staging?.discard();
    // The folder changed while the comparison ran (checked again when staged and committed): refused by its key, as before.
    if (error instanceof OutputDirError) throw new JobError(`${error.message} (it changed while the comparison ran)`, '--internal');
    throw error;
  }
}

/** Where the comparison folder may not go: checked before a comparison starts and again when it is written. */
export function checkComparisonFolderPlace(dir: string, inputs: readonly string[]): void {
  try {
    checkOutputDir(dir, 'comparison');
    checkNotAroundInputs(dir, 'comparison', inputs);
  } catch (error) {
    if (error instanceof OutputDirError) throw new JobError(error.message, '--internal');
    throw error;
  }
}
