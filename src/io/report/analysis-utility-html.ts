import { analysisFacts, distance, type ContingencyReport } from '../../common/report/analysis-utility-facts.js';
import { esc } from '../../common/report/format.js';
import type { Report } from '../../common/report/report-model.js';

/**
 * The internal report's analysis-based utility: a classifier's accuracy trained on the release against
 * the input, and contingency tables before and after. Absent from the external variant (its schema has
 * no `utility.analysis`), so nothing here can reach a release folder.
 */
export function analysisUtilitySection(report: Report): string {
  const analysis = report.utility.analysis;
  if (!analysis) return '';
  const intro = 'reading' in analysis ? `<p>What an analyst gets from the release against the same analysis of the input. The release is read in the input's values: ${esc(analysis.reading)}.</p>` : '';
  const tables = 'tables' in analysis ? analysis.tables.map(tableHtml).join('') : '';
  return `<h2>Analysis-based utility</h2>
${intro}<table><tbody>${analysisFacts(analysis).map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table>${tables}`;
}

/** A small table cell by cell: the input's count, then the release's estimate. */
function tableHtml(t: ContingencyReport): string {
  if ('skipped' in t || !t.cells) return '';
  const cells = t.cells;
  const head = `<tr><th>${esc(t.columns[0])} \\ ${esc(t.columns[1])}</th>${t.cols.map((c) => `<th>${esc(c)}</th>`).join('')}</tr>`;
  const body = t.rows
    .map((r, i) => `<tr><th>${esc(r)}</th>${t.cols.map((_, j) => `<td class="n">${fmt(cells.input[i * t.cols.length + j]!)} → ${fmt(cells.release[i * t.cols.length + j]!)}</td>`).join('')}</tr>`)
    .join('');
  return `<h3>${esc(t.columns[0])} × ${esc(t.columns[1])}: input → release (total variation ${distance(t.totalVariation)})</h3><table><thead>${head}</thead><tbody>${body}</tbody></table>`;
}

const fmt = (v: number): string => (Number.isInteger(v) ? v.toLocaleString('en-US') : v.toFixed(1));
