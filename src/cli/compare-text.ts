import { cannotRunText, COMMON_POOL_ERROR, TWO_ERRORS, type Comparison } from '../common/compare/comparison.js';
import type { CompareProgress } from '../jobs/compare/compare-jobs.js';
import { TABLE_HEADER, tableRows } from '../jobs/compare/comparison-files.js';
import { terminalBar } from './progress-bar.js';
import { formatCount } from '../common/format/numbers.js';

/** Wraps text at width for the terminal. */
function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

/** The table for a terminal, then the measures and the warning about choosing. */
export function comparisonText(comparison: Comparison, written: { readonly internalDir?: string | undefined; readonly csvPath?: string | undefined }): string {
  const rows = [[...TABLE_HEADER], ...tableRows(comparison)];
  const widths = TABLE_HEADER.map((_, j) => Math.min(j === 3 ? 48 : 40, Math.max(...rows.map((r) => [...r[j]!].length))));
  const cell = (text: string, w: number) => {
    const chars = [...text];
    return chars.length > w ? `${chars.slice(0, w - 1).join('')}…` : text + ' '.repeat(w - chars.length);
  };
  const table = rows.map((r) => r.map((c, j) => cell(c, widths[j]!)).join('  ').trimEnd()).join('\n');
  const measures = comparison.candidates.map((c) => wrap(`${c.id}. risk = ${c.risk.measure}. Guarantee: ${c.guarantee.label}.`)).join('\n');
  const skipped = comparison.skipped.map((s) => wrap(`${s.id}. ${s.label}: ${cannotRunText(s)}`)).join('\n');
  return [
    `CONFIDENTIAL: computed on the confidential input ${comparison.input.path} (${formatCount(comparison.input.rows)} records); nothing was released.`,
    '',
    table,
    '',
    wrap(`Utility (${COMMON_POOL_ERROR}): ${formatCount(comparison.pool.queries)} count queries, one pool for every candidate. ${comparison.pool.description}.`),
    '',
    wrap(TWO_ERRORS),
    '',
    measures,
    '',
    ...(skipped ? [`Not compared (${comparison.skipped.length} of ${comparison.skipped.length + comparison.candidates.length} candidates could not run; the others were compared without them):`, skipped, ''] : []),
    wrap(`Choosing: ${comparison.notes[0]}`),
    ...(written.internalDir ? ['', `The comparison (JSON, HTML with the chart, CSV) is in ${written.internalDir}: confidential, never to be published.`] : []),
    ...(written.csvPath ? ['', `The table is in ${written.csvPath}: confidential, never to be published.`] : []),
  ].join('\n');
}

/**
 * Progress on stderr while candidates are assessed: on a terminal one line redrawn in place; otherwise
 * (a log, a pipe, CI) a line of its own each time more candidates are done, at most one per whole
 * percent, so a long comparison shows it is moving without filling the log.
 */
export function compareProgressBar(stream: NodeJS.WriteStream): { update(p: CompareProgress): void; clear(): void } {
  const bar = terminalBar(stream, 18);
  if (stream.isTTY !== true) {
    let shown = 0;
    let percent = -1;
    return {
      update: (p) => {
        const now = Math.floor((100 * p.candidate) / p.of);
        if (p.candidate <= shown || now <= percent) return;
        shown = p.candidate;
        percent = now;
        stream.write(`custos: ${p.candidate}/${p.of} candidates assessed (${now}%)\n`);
      },
      clear: () => undefined,
    };
  }
  return {
    update: (p) => bar.draw(p.candidate < p.of ? `candidate ${p.candidate + 1}/${p.of}` : 'frontier', p.fraction),
    clear: () => bar.clear(),
  };
}
