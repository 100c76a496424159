import { esc } from '../../../common/report/format.js';
import { formatNumber } from '../../../common/format/numbers.js';
import type { Report } from '../../../common/report/report-model.js';

/**
 * Microaggregation's section: what the release shows of its groups, and (internal report only)
 * the information loss, which compares the released values with the confidential ones.
 */
export function microaggregationSection(report: Report): string {
  const { parameters, derived } = report.method;
  const internal = report.variant === 'internal' ? report.method.internal : undefined;
  const rows: [string, string][] = [
    ['Aggregated columns', String(parameters['columns'] ?? '')],
    ['Group size', `k = ${String(parameters['k'] ?? '')}; MDAV groups hold ${String(derived['groupSizes'] ?? '')} records`],
    ['Aggregation', `${String(parameters['aggregation'] ?? '')}, ${String(derived['rounding'] ?? '')}`],
    ['Distance', String(derived['distance'] ?? '')],
    ['Released combinations of the aggregated columns', `${formatNumber(Number(derived['aggregatedClasses']))}, the smallest shared by ${formatNumber(Number(derived['smallestAggregatedClass']))} records`],
  ];
  if (internal) {
    rows.push(
      ['Information loss SSE/SST (internal)', `${formatNumber(internal['sseOverSst'], 6)} (SSE ${formatNumber(internal['sse'], 4)} of SST ${formatNumber(internal['sst'], 4)})`],
      ["sdcMicro's IL1s (internal)", formatNumber(internal['il1s'], 6)],
      ['MDAV groups (internal)', formatNumber(internal['groups'])],
    );
  }
  return `<h2>Microaggregation</h2>
<table><tbody>${rows.map(([k, v]) => `<tr><th>${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</tbody></table>
${internal ? `<p class="meta">${esc(String(derived['informationLoss'] ?? ''))}.</p>` : '<p class="meta">The information loss compares the released values with the confidential ones: it is in the internal report.</p>'}`;
}
