/**
 * A mechanism's part of the report as plain data: headings, sentences, figure rows, tables and
 * charts, built once from the report by the mechanism (its `reportView`) and drawn by generic
 * renderers: the HTML report (`viewHtml` below), the PDF, and the wizard. No renderer knows a
 * mechanism; no mechanism writes markup.
 *
 * Text is a list of pieces. A plain string is the code's own words (no markup by construction); a
 * `{ data }` piece is a value from the report (a column, a value, a number), which the HTML escapes.
 * The HTML writes the code's own words as they are: the report.html Custos has always published,
 * byte for byte, depends on it (verify draws every published report.html again and compares bytes).
 */
import { esc } from './format.js';
import { barChart, estimatePlot } from './svg-charts.js';

export type Piece =
  | string
  | { readonly data: string | number }
  | { readonly strong: string | number }
  | { readonly verdict: 'ok' | 'bad'; readonly text: string };
export type Text = string | readonly Piece[];

/** A value of the report inside a sentence (escaped in the HTML). */
export const data = (value: string | number): Piece => ({ data: value });

export interface ViewBar {
  readonly label: string;
  readonly value: number;
  readonly tone: 'danger' | 'safe' | 'neutral' | 'muted';
  /** The value as the chart writes it after its bar. */
  readonly text: string;
}

export interface ViewCell {
  readonly text: Text;
  /** A figure: right-aligned. */
  readonly n?: true;
  readonly mono?: true;
  /** The HTML starts the cell on a new line (the layout the published report.html has). */
  readonly br?: true;
}

export type Block =
  | { readonly kind: 'heading'; readonly level: 2 | 3; readonly text: Text }
  /** `formula`: mathematics in symbols, set apart (the appendix "The mathematics"). */
  | { readonly kind: 'paragraph'; readonly text: Text; readonly tone?: 'meta' | 'formula' }
  /** Labelled figures, one row each; `null` is a row this report does not have (in `lines` layout, an empty line). */
  | { readonly kind: 'facts'; readonly rows: readonly (readonly [Text, Text] | null)[]; readonly lines?: true }
  | { readonly kind: 'table'; readonly head: readonly ViewCell[]; readonly rows: readonly (readonly ViewCell[])[] }
  | { readonly kind: 'bars'; readonly title: string; readonly bars: readonly ViewBar[] }
  /** A finding set apart: reassuring (`ok`) or a caution (`warn`), its title first. */
  | { readonly kind: 'callout'; readonly tone: 'ok' | 'warn'; readonly title?: string; readonly text: Text }
  /** Blocks that belong together (the wizard draws them on one card). */
  | { readonly kind: 'card'; readonly blocks: readonly Block[] }
  | {
      readonly kind: 'estimates';
      readonly title: string;
      readonly rows: readonly { readonly label: string; readonly truth: number; readonly before: number; readonly after?: number }[];
      readonly legend: readonly { readonly tone: 'truth' | 'danger' | 'safe'; readonly label: string }[];
    };

/**
 * A section as lines of blocks: the HTML writes each line's blocks side by side and a line break
 * between lines; an empty line is a block this report does not have.
 */
export type ViewSection = readonly (readonly Block[])[];

/** What a mechanism shows of a report. */
export interface ReportView {
  /** Its sections of the HTML report, in order: plain words first, what was done, what it protects, what it costs. */
  readonly sections: ViewSection;
  /**
   * Its key figures, which `keyFigureBlocks` (key-figures.ts) sets among the shared ones for the
   * PDF, the workbook's Report sheet and the wizard's results: the rows of its `facts` blocks join
   * the one table of key figures, its other blocks (charts) follow that table.
   */
  readonly keyFigures: readonly Block[];
  /**
   * Its part of the appendix "The mathematics", drawn last (after the guarantee's formula): the
   * formulas, symbols and the paper's lemma and theorem numbers behind the plain sections, which a
   * custodian need not read and an auditor looks up. Empty or absent: nothing to add.
   */
  readonly mathematics?: ViewSection;
  /**
   * What the wizard's risk step shows of an assessment, before anything is written: the figures a
   * custodian weighs while setting the parameters. Empty where it shows none.
   */
  readonly preview: readonly Block[];
}

/** A labelled figure as a row of a `facts` block: both sides text without markup, escaped wherever drawn. */
export const figure = (label: string, value: string): readonly [Text, Text] => [[data(label)], [data(value)]];

/** Text without markup (the PDF, the workbook, the wizard). */
export function plainText(text: Text): string {
  if (typeof text === 'string') return text;
  return text.map((p) => (typeof p === 'string' ? p : 'data' in p ? String(p.data) : 'strong' in p ? String(p.strong) : p.text)).join('');
}

function textHtml(text: Text): string {
  if (typeof text === 'string') return text;
  return text
    .map((p) => {
      if (typeof p === 'string') return p;
      if ('data' in p) return esc(p.data);
      if ('strong' in p) return `<strong>${esc(p.strong)}</strong>`;
      return `<span class="verdict ${p.verdict}">${esc(p.text)}</span>`;
    })
    .join('');
}

function cellHtml(tag: 'td' | 'th', cell: ViewCell): string {
  const cls = cell.n ? ' class="n"' : cell.mono ? ' class="mono"' : '';
  return `${cell.br ? '\n' : ''}<${tag}${cls}>${textHtml(cell.text)}</${tag}>`;
}

const LEGEND_COLOURS = { truth: '#222', danger: '#b3261e', safe: '#1b6e3a' } as const;

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'heading':
      return `<h${block.level}>${textHtml(block.text)}</h${block.level}>`;
    case 'paragraph':
      return `<p${block.tone ? ` class="${block.tone === 'formula' ? 'formula mono' : block.tone}"` : ''}>${textHtml(block.text)}</p>`;
    case 'facts': {
      const rows = block.rows.map((row) => (row ? `<tr><th>${textHtml(row[0])}</th><td>${textHtml(row[1])}</td></tr>` : ''));
      return block.lines ? `<table><tbody>\n${rows.join('\n')}\n</tbody></table>` : `<table><tbody>${rows.join('')}</tbody></table>`;
    }
    case 'table':
      return `<table><thead><tr>${block.head.map((c) => cellHtml('th', c)).join('')}</tr></thead><tbody>${block.rows.map((r) => `<tr>${r.map((c) => cellHtml('td', c)).join('')}</tr>`).join('')}</tbody></table>`;
    case 'bars':
      return barChart(block.title, block.bars);
    case 'callout':
      return `<p class="${block.tone === 'warn' ? 'warn' : 'meta'}">${block.title ? `<strong>${esc(block.title)}</strong> ` : ''}${textHtml(block.text)}</p>`;
    case 'card':
      return block.blocks.map(blockHtml).join('');
    case 'estimates':
      return (
        estimatePlot(block.title, block.rows) +
        `<p class="legend">${block.legend.map((l) => `<span><i class="sw" style="background:${LEGEND_COLOURS[l.tone]}"></i>${esc(l.label)}</span>`).join('')}</p>`
      );
  }
}

/** A section as the HTML report draws it. */
export function viewHtml(section: ViewSection): string {
  return section.map((line) => line.map(blockHtml).join('')).join('\n');
}

/**
 * A block as rows of a sheet (the workbook's Report sheet), one case per kind: labelled figures a
 * row each, a table its head and rows, text a row. A chart is left out: a sheet states figures,
 * and the charts of the key figures chart rows of their table.
 */
export function blockRows(block: Block): string[][] {
  switch (block.kind) {
    case 'heading':
    case 'paragraph':
      return [[plainText(block.text)]];
    case 'callout':
      return [[`${block.title ? `${block.title} ` : ''}${plainText(block.text)}`]];
    case 'card':
      return block.blocks.flatMap(blockRows);
    case 'facts':
      return block.rows.flatMap((row) => (row ? [[plainText(row[0]), plainText(row[1])]] : []));
    case 'table':
      return [block.head, ...block.rows].map((row) => row.map((c) => plainText(c.text)));
    case 'bars':
    case 'estimates':
      return [];
  }
}
