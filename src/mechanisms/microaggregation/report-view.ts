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
      ['Information loss (internal)', `${formatNumber(internal['sseOverSst'], 6)} (0 keeps every value, 1 loses as much as replacing every value by its column's mean)`],
      ["Mean distance of a value from the one it replaced, scaled by its column's spread: sdcMicro's IL1s (internal)", formatNumber(internal['il1s'], 6)],
      ['MDAV groups (internal)', formatNumber(internal['groups'])],
    );
  }
  return {
    mathematics: internal
      ? [
          [{ kind: 'heading', level: 3, text: 'Information loss (microaggregation)' }],
          [{ kind: 'paragraph', text: [data(String(derived['informationLoss'] ?? '')), '.'] }],
          [{ kind: 'paragraph', tone: 'formula', text: [data(`SSE/SST = ${formatNumber(internal['sse'], 4)} / ${formatNumber(internal['sst'], 4)} = ${formatNumber(internal['sseOverSst'], 6)};  IL1s = (1/(n·p)) Σ over the p aggregated columns and n records of √2·|x − x′| / sd`)] }],
        ]
      : [],
    sections: [
      [{ kind: 'heading', level: 2, text: 'Microaggregation' }],
      [{ kind: 'facts', rows: rows.map(([k, v]) => [[data(k)], [data(v)]] as const) }],
      [
        internal
          ? { kind: 'paragraph', tone: 'meta', text: 'The information loss compares the released values with the confidential ones; how it is computed is in “The mathematics”.' }
          : { kind: 'paragraph', tone: 'meta', text: 'The information loss compares the released values with the confidential ones: it is in the internal report.' },
      ],
    ],
    // Its figures are in its section above; the key figures hold the shared ones only.
    keyFigures: [],
    // The risk step shows the shared risk figures only.
    preview: [],
  };
}
