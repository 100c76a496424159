import { formatNumber } from '../../common/format/numbers.js';
import type { Report } from '../../common/report/report-model.js';
import { data, type ReportView } from '../../common/report/view-model.js';

/**
 * Microaggregation's section: what the release shows of its groups, and (internal report only)
 * the information loss, which compares the released values with the confidential ones.
 */
export function microaggregationView(report: Report): ReportView {
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
  return {
    sections: [
      [{ kind: 'heading', level: 2, text: 'Microaggregation' }],
      [{ kind: 'facts', rows: rows.map(([k, v]) => [[data(k)], [data(v)]] as const) }],
      [
        internal
          ? { kind: 'paragraph', tone: 'meta', text: [data(String(derived['informationLoss'] ?? '')), '.'] }
          : { kind: 'paragraph', tone: 'meta', text: 'The information loss compares the released values with the confidential ones: it is in the internal report.' },
      ],
    ],
    // Its figures are in its section above; the key figures hold the shared ones only.
    keyFigures: [],
    // The risk step shows the shared risk figures only.
    preview: [],
  };
}
