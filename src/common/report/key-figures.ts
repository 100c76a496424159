import { formatNumber as fmt } from '../format/numbers.js';
import type { ReportFigures } from '../mechanism.js';
import type { Report } from './report-model.js';
import { figure, plainText, type Block, type Text, type ViewBar } from './view-model.js';

/**
 * A report's key figures as blocks, which the PDF, the workbook's Report sheet and the wizard's
 * results draw with their generic drawers: one table (the input's size, the figures of each
 * mechanism's view in the order given, the utility figure, the released rows), then the views'
 * charts and the utility chart. `figures` is the report's method's (a chain's last step's).
 */
export function keyFigureBlocks(report: Report, views: readonly { readonly keyFigures: readonly Block[] }[], figures: ReportFigures): Block[] {
  const rows: (readonly [Text, Text])[] = report.input.rows !== undefined ? [figure('Records in the input (internal)', fmt(report.input.rows))] : [];
  const charts: Block[] = [];
  for (const block of views.flatMap((v) => v.keyFigures)) {
    if (block.kind === 'facts') rows.push(...block.rows.filter((row) => row !== null));
    else charts.push(block);
  }
  const errors = report.utility.relativeError;
  const errorBars: ViewBar[] = [];
  if (errors.release !== undefined) errorBars.push({ label: 'this release', value: errors.release, tone: 'safe', text: fmt(errors.release) });
  if (errors.uniformPerturbation !== undefined && !figures.releaseIsPlainPerturbation) {
    errorBars.push({ label: 'plain perturbation', value: errors.uniformPerturbation, tone: 'neutral', text: fmt(errors.uniformPerturbation) });
  }
  if (errors.anatomy !== undefined) errorBars.push({ label: 'Anatomy baseline', value: errors.anatomy, tone: 'neutral', text: fmt(errors.anatomy) });
  if (errorBars.length > 0) {
    // Named by the pool it averages: the randomized methods' and β-privacy's queries each fix a sensitive value; the others' ask the quasi-identifiers.
    const name = `Mean relative error of ${figures.utilityQueries} count queries`;
    rows.push(figure(name, errorBars.map((b) => `${b.label} ${b.text}`).join('; ')));
    charts.push({ kind: 'bars', title: `${name} (lower is better)`, bars: errorBars });
  }
  // A DP-counts release is a table of answers, not of records.
  if (report.output) rows.push(figure(report.dp ? 'Released answers' : 'Released records', fmt(report.output.rows)));
  return [{ kind: 'facts', rows }, ...charts];
}

/** A labelled value as text, the unit of the PDF's tables and the workbook's sheets. */
export type Fact = readonly [string, string];

/** Blocks' labelled figures as text: the rows of their `facts` blocks. */
export function factsOf(blocks: readonly Block[]): Fact[] {
  return blocks.flatMap((b) => (b.kind === 'facts' ? b.rows.flatMap((row) => (row ? [[plainText(row[0]), plainText(row[1])] as const] : [])) : []));
}
