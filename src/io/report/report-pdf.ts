import { reviewWords } from '../../common/report/review-words.js';
import { CONFIDENTIAL_MARK, type Report } from '../../common/report/report-model.js';
import { sharedFacts, type Fact } from '../../common/report/report-facts.js';
import { plainText, type Block, type ViewBar } from '../../common/report/view-model.js';
import { readableTime } from '../../common/report/format.js';
import { formatNumber } from '../../common/format/numbers.js';
import { lazyRequire } from '../lazy-require.js';
import { reportFonts } from './report-fonts.js';
import { verdictWords } from '../../common/report/guarantee-verdict.js';

const pdfKit = lazyRequire<typeof import('pdfkit')>('pdfkit');

/**
 * Loads PDFKit ahead of the first report (a sixth of a second of compiling, once per process): a run
 * does while its thread would otherwise only wait (for the workbook's sheets from their helper).
 */
export function loadPdfKit(): void {
  pdfKit();
}

const INK = '#1d2430';
const MUTED = '#5b6472';
const DANGER = '#b3261e';
const SAFE = '#1b6e3a';
const ACCENT = '#3a5a8c';
const MARGIN = 50;
const TONES: Readonly<Record<ViewBar['tone'], string>> = { danger: DANGER, safe: SAFE, neutral: ACCENT, muted: MUTED };
/** The most of a section's start a heading keeps with it on its page (as much as a table row break leaves). */
const KEPT_WITH_HEADING = 80;

/**
 * The report as a PDF, drawn offline with PDFKit (no browser): embedded DejaVu
 * fonts cover ε, δ, β, ≤ and ⌊⌋, and every number comes from the report model.
 * The creation date is the report's, so identical reports give identical PDFs.
 */
/** A section a caller adds after the report's own (the comparison a run's setting was chosen from): paragraphs, then a grid. */
export interface ExtraPdfSection {
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Relative column widths, one per header cell. */
  readonly widths: readonly number[];
}

/** The longest unbroken run the PDF draws whole: PDFKit breaks a longer word character by character, in time that grows with its square. */
const LONGEST_RUN = 80;
/** The longest text the PDF draws; the HTML and JSON reports hold every character. */
const LONGEST_TEXT = 4000;

/** Text as the PDF draws it: a very long name or value is cut, with an ellipsis, where the other reports keep it whole. */
export function clip(text: string): string {
  const short = text.length > LONGEST_TEXT ? `${text.slice(0, LONGEST_TEXT)}…` : text;
  return short.replace(new RegExp(`\\S{${LONGEST_RUN + 1},}`, 'g'), (run) => `${run.slice(0, LONGEST_RUN)}…`);
}

/**
 * `keyFigures` are the report's key figures as view-model blocks (`keyFigureBlocks` of
 * src/common/report/key-figures.ts, from the mechanisms' views), drawn by `block` below.
 */
export function renderReportPdf(report: Report, keyFigures: readonly Block[], extra: readonly ExtraPdfSection[] = []): Buffer {
  const created = new Date(report.createdAt);
  const PDFDocument = pdfKit();
  const fonts = reportFonts();
  // No default face: PDFKit's Helvetica is never loaded (the standalone build could not resolve it,
  // and the report never uses it). Each face is first opened under its registered name below, which
  // is how PDFKit caches it: a face first opened under another key (as the default font was) is read,
  // parsed and compared again at every font() call by name, a third of the drawing's time.
  const doc = new PDFDocument({
    // PDFKit's types only say string; null is what skips its default font.
    font: null as unknown as string,
    size: 'A4',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Custos ${report.kind === 'release' ? 'privacy report' : 'risk assessment'}`, Author: 'Custos', Subject: `${report.schema} ${report.variant}`, ...(report.variant === 'internal' ? { Keywords: 'CONFIDENTIAL internal' } : {}), Creator: `Custos ${report.software.version}`, CreationDate: created, ModDate: created },
  });
  doc.registerFont('regular', fonts.regular);
  doc.registerFont('bold', fonts.bold);
  doc.registerFont('mono', fonts.mono);
  doc.font('regular');
  const width = doc.page.width - 2 * MARGIN;

  /** Bottom of the writable page: the footer sits below it. */
  const pageEnd = (): number => doc.page.height - 60;
  /**
   * A heading starts a new page only if it and the start of what it heads (`following`, at most
   * KEPT_WITH_HEADING) do not fit; a short last section, sized exactly, stays on the page instead
   * of opening a page of its own.
   */
  const heading = (text: string, following = KEPT_WITH_HEADING, size = 14): void => {
    const own = 0.6 * doc.currentLineHeight(true) + size * 1.4 + 14;
    if (doc.y + own + Math.min(following, KEPT_WITH_HEADING) > pageEnd()) doc.addPage();
    doc.moveDown(0.6).font('bold').fontSize(size).fillColor(INK).text(clip(text));
    doc.moveTo(MARGIN, doc.y + 2).lineTo(MARGIN + width, doc.y + 2).strokeColor('#d9dde3').lineWidth(0.7).stroke();
    doc.moveDown(0.4);
  };
  const paragraph = (text: string, options: { font?: string; size?: number; color?: string } = {}): void => {
    doc.font(options.font ?? 'regular').fontSize(options.size ?? 10).fillColor(options.color ?? INK).text(clip(text), { width, align: 'left' });
    doc.moveDown(0.3);
  };
  /** Checksums are set in the monospaced face, every other value in the regular one. */
  const valueFont = (value: string): string => (/^[0-9a-f]{64}$/.test(value) ? 'mono' : 'regular');
  const rowHeight = ([key, value]: Fact, keyWidth: number): number => {
    const keyHeight = doc.font('bold').fontSize(9).heightOfString(clip(key), { width: keyWidth - 8 });
    const valueHeight = doc.font(valueFont(value)).fontSize(9).heightOfString(clip(value), { width: width - keyWidth });
    return Math.max(keyHeight, valueHeight) + 3;
  };
  /** The height of a table's first rows, as much as a heading keeps with it. */
  const tableStart = (rows: readonly Fact[], keyWidth: number): number => {
    let height = 0;
    for (const row of rows) {
      if (height >= KEPT_WITH_HEADING) break;
      height += rowHeight(row, keyWidth);
    }
    return height;
  };
  const table = (rows: readonly Fact[], keyWidth: number): void => {
    for (const row of rows) {
      const [key, value] = row;
      if (doc.y + rowHeight(row, keyWidth) > pageEnd()) doc.addPage();
      const y = doc.y;
      doc.font('bold').fontSize(9).fillColor(INK).text(clip(key), MARGIN, y, { width: keyWidth - 8 });
      const keyBottom = doc.y;
      doc.font(valueFont(value)).fontSize(9).text(clip(value), MARGIN + keyWidth, y, { width: width - keyWidth });
      doc.y = Math.max(doc.y, keyBottom) + 3;
      doc.x = MARGIN;
    }
    doc.moveDown(0.3);
  };
  const grid = (header: readonly string[], rows: readonly (readonly string[])[], weights: readonly number[]): void => {
    const total = weights.reduce((a, b) => a + b, 0);
    const widths = weights.map((w) => (w / total) * width);
    const line = (cells: readonly string[], font: string): void => {
      doc.font(font).fontSize(7.5).fillColor(INK);
      const heights = cells.map((cell, j) => doc.heightOfString(clip(cell), { width: widths[j]! - 4 }));
      const height = Math.max(...heights) + 4;
      if (doc.y + height > doc.page.height - 60) doc.addPage();
      const y = doc.y;
      let x = MARGIN;
      cells.forEach((cell, j) => {
        doc.text(clip(cell), x + 2, y + 2, { width: widths[j]! - 4 });
        x += widths[j]!;
      });
      doc.moveTo(MARGIN, y + height).lineTo(MARGIN + width, y + height).strokeColor('#d9dde3').lineWidth(0.5).stroke();
      doc.y = y + height;
      doc.x = MARGIN;
    };
    line(header, 'bold');
    for (const row of rows) line(row, 'regular');
    doc.moveDown(0.4);
  };
  /** The key column of a table of facts: as wide as its widest key (within limits). */
  const keyWidthOf = (rows: readonly Fact[], minKeyWidth = 170): number => {
    const widest = Math.max(0, ...rows.map(([key]) => doc.font('bold').fontSize(9).widthOfString(clip(key))));
    return Math.min(Math.max(minKeyWidth, Math.ceil(widest) + 12), Math.round(width * 0.45));
  };
  /** A heading over a table of facts. */
  const factSection = (title: string, rows: readonly Fact[], minKeyWidth = 170): void => {
    const keyWidth = keyWidthOf(rows, minKeyWidth);
    heading(title, tableStart(rows, keyWidth));
    table(rows, keyWidth);
  };
  const factRows = (rows: Extract<Block, { kind: 'facts' }>['rows']): Fact[] => rows.flatMap((row) => (row ? [[plainText(row[0]), plainText(row[1])] as const] : []));
  /** How much of a block a heading keeps with it on its page. */
  const blockStart = (block: Block | undefined): number => {
    if (block?.kind !== 'facts') return KEPT_WITH_HEADING;
    const rows = factRows(block.rows);
    return tableStart(rows, keyWidthOf(rows));
  };
  /** A block of a view (src/common/report/view-model.ts) as the PDF draws it: one case per kind. */
  const block = (b: Block): void => {
    switch (b.kind) {
      case 'heading':
        return heading(plainText(b.text), KEPT_WITH_HEADING, b.level === 2 ? 14 : 12);
      case 'paragraph':
        return b.tone === 'meta' ? paragraph(plainText(b.text), { size: 8, color: MUTED }) : paragraph(plainText(b.text));
      case 'facts': {
        const rows = factRows(b.rows);
        return table(rows, keyWidthOf(rows));
      }
      case 'table':
        return grid(b.head.map((c) => plainText(c.text)), b.rows.map((r) => r.map((c) => plainText(c.text))), b.head.map(() => 1));
      case 'callout':
        return paragraph(`${b.title ? `${b.title} ` : ''}${plainText(b.text)}`, b.tone === 'warn' ? { color: '#6b3f00' } : {});
      case 'card':
        return b.blocks.forEach(block);
      case 'bars':
        return bars(b.title, b.bars.map((bar) => ({ label: bar.label, value: bar.value, color: TONES[bar.tone], text: bar.text })));
      case 'estimates':
        // The plot's points as a grid: a row per group, a column per series of the legend.
        return grid(['', ...b.legend.map((l) => l.label)], b.rows.map((r) => [r.label, ...[r.truth, r.before, ...(r.after !== undefined ? [r.after] : [])].map((v) => formatNumber(v, 3))]), [2, ...b.legend.map(() => 1)]);
    }
  };
  /** A heading over blocks, kept with the start of the first. */
  const blockSection = (title: string, blocks: readonly Block[]): void => {
    heading(title, blockStart(blocks[0]));
    for (const b of blocks) block(b);
  };
  const bars = (title: string, items: readonly { label: string; value: number; color: string; text: string }[]): void => {
    if (items.length === 0) return;
    if (doc.y > doc.page.height - 60 - items.length * 20) doc.addPage();
    doc.font('bold').fontSize(10).fillColor(INK).text(clip(title));
    doc.moveDown(0.2);
    const max = Math.max(...items.map((i) => (Number.isFinite(i.value) ? i.value : 0)), 1e-12);
    for (const item of items) {
      const y = doc.y;
      doc.font('regular').fontSize(9).fillColor(INK).text(clip(item.label), MARGIN, y + 3, { width: 180 });
      const w = Math.max(1, ((Number.isFinite(item.value) ? item.value : 0) / max) * (width - 260));
      doc.rect(MARGIN + 190, y + 2, w, 12).fill(item.color);
      doc.fillColor(INK).text(item.text, MARGIN + 196 + w, y + 3);
      doc.y = y + 18;
      doc.x = MARGIN;
    }
    doc.moveDown(0.4);
  };

  const facts = sharedFacts(report);
  doc.font('bold').fontSize(20).fillColor(INK).text(`${report.kind === 'release' ? 'Privacy report' : 'Risk assessment'}: ${report.method.title}`);
  paragraph(`${report.variant} variant · ${readableTime(report.createdAt)} · Custos ${report.software.version}`, { color: MUTED, size: 9 });
  if (report.notice) {
    const y = doc.y;
    doc.rect(MARGIN, y, width, 30).fillAndStroke('#fff4e5', '#c77700');
    doc.font('bold').fontSize(10).fillColor('#6b3f00').text(report.notice, MARGIN + 8, y + 6, { width: width - 16 });
    doc.y = y + 38;
    doc.x = MARGIN;
  }
  heading('In plain words');
  for (const line of report.summary) paragraph(`•  ${line}`);
  if (report.review) {
    // The review as the HTML shows it, at the same place: the verdict first, then what the method assumes, the acknowledgement, every check.
    const words = reviewWords(report.review);
    heading(`${words.title}: ${words.verdict}`);
    paragraph(words.attacker);
    if (words.acknowledgement) paragraph(words.acknowledgement, { font: 'bold', color: '#6b3f00' });
    const keyWidth = Math.min(Math.max(130, Math.ceil(Math.max(...words.checks.map(([key]) => doc.font('bold').fontSize(9).widthOfString(clip(key))))) + 12), Math.round(width * 0.35));
    table(words.checks, keyWidth);
  }
  heading(`Guarantee: ${report.guarantee.name} — ${verdictWords(report.guarantee, true)}`);
  paragraph(report.guarantee.statement);
  paragraph(`Source: ${report.guarantee.source}. The formula is in “The mathematics” at the end.`, { size: 8, color: MUTED });

  blockSection('Key figures', keyFigures);
  if (facts.reidentification.length > 0) {
    factSection('Re-identification risk (quasi-identifiers)', facts.reidentification, 230);
  }
  factSection('Method and parameters', facts.parameters);
  factSection('Input', facts.input);
  if (report.output) {
    factSection('Output files (SHA-256)', report.output.files.map((f): Fact => [f.name, f.sha256]), 110);
    paragraph('report.json lists the checksum of the HTML and PDF reports; `custos verify` recomputes every checksum.', { size: 8, color: MUTED });
  }
  if (report.warnings.length > 0) {
    heading('Warnings', doc.font('regular').fontSize(10).heightOfString(clip(`•  ${report.warnings[0]!}`), { width }));
    for (const w of report.warnings) paragraph(`•  ${w}`, { color: '#6b3f00' });
  }
  // The appendix: the guarantee as a formula, after the plain sentences.
  heading('The mathematics');
  paragraph(`${report.guarantee.name}, as the theorem states it (${report.guarantee.source}):`, { size: 9 });
  paragraph(report.guarantee.formula, { font: 'mono', size: 8, color: MUTED });
  factSection('Provenance', facts.provenance);
  for (const section of extra) {
    doc.addPage();
    heading(section.title);
    for (const text of section.paragraphs) paragraph(text);
    grid(section.header, section.rows, section.widths);
  }

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would otherwise make PDFKit open a new page.
    doc.page.margins.bottom = 0;
    doc.font('regular').fontSize(8).fillColor(MUTED).text(
      `Custos ${report.software.version}${report.input.sha256 ? ` · input ${report.input.sha256.slice(0, 16)}…` : ''} · page ${i + 1} of ${range.count}`,
      MARGIN,
      doc.page.height - 35,
      { width, align: 'center', lineBreak: false },
    );
    if (report.variant === 'internal') {
      doc.font('bold').fontSize(8).fillColor(DANGER).text(CONFIDENTIAL_MARK, MARGIN, 22, { width, align: 'center', lineBreak: false });
    }
  }
  doc.end();
  const chunks: Buffer[] = [];
  for (let chunk = doc.read() as Buffer | null; chunk !== null; chunk = doc.read() as Buffer | null) chunks.push(chunk);
  return Buffer.concat(chunks);
}
