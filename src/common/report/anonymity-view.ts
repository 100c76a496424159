import { formatNumber } from '../format/numbers.js';
import { anonymityKeyFigures } from './anonymity-figures.js';
import { anonymityPreview } from './anonymity-preview.js';
import type { AnonymityReport, Report } from './report-model.js';
import { data, type Block, type ReportView, type ViewCell } from './view-model.js';

const n = (text: string | number): ViewCell => ({ text: [data(text)], n: true });
const cell = (text: string): ViewCell => ({ text: [data(text)] });

/**
 * The part of the report of the methods that recode quasi-identifiers into classes (safe
 * k-anonymity, partitioned recoding, global recoding): recoding per column, classes, the (ε, δ)
 * curve and the parts, each where the report has it.
 */
export function anonymityView(report: Report): ReportView {
  return { sections: report.anonymity ? anonymitySections(report, report.anonymity) : [], keyFigures: anonymityKeyFigures(report), preview: anonymityPreview(report) };
}

function anonymitySections(report: Report, a: AnonymityReport): Block[][] {
  const internal = report.variant === 'internal';
  // Local suppression: a column of cells released as "*" (global recoding only).
  const cells = a.columns.some((c) => c.suppressedCells !== undefined);
  const columns = a.columns.map((c): ViewCell[] => [
    cell(c.name),
    cell(c.hierarchy),
    { text: [data(c.level), ' of ', data(c.depth - 1)], n: true },
    cell(c.example ?? ''),
    ...(cells ? [n(c.suppressedCells !== undefined ? formatNumber(c.suppressedCells) : '')] : []),
  ]);
  const curve = a.curve ?? [];
  const parts = a.parts ?? [];
  const selection = report.method.derived['epsilonSelection'];
  const choice =
    report.method.levels !== undefined
      ? ['The levels were chosen on this data by the optimal search over the lattice: ', data(a.choice ?? '')]
      : selection === undefined
        ? ['The recoding was fixed in the job, before any record was read']
        : ['The recoding was chosen on the sample by the differentially private search (ε_sel = ', data(selection), ')'];
  const classes = cells
    ? [data(formatNumber(report.risk.classes ?? 0)), ' distinct released tuples; with "*" matching any value, every released record is compatible with at least ', data(formatNumber(report.risk.minClassSize ?? 0)), ' records (local suppression).']
    : [data(formatNumber(report.risk.classes ?? 0)), ' released classes; the smallest has ', data(formatNumber(report.risk.minClassSize ?? 0)), ' records.'];
  const suppressed = report.output?.suppressed;
  const curveLines: Block[][] = [
    [{ kind: 'heading', level: 2, text: 'The (ε, δ) curve' }],
    [
      {
        kind: 'bars',
        title: '−log₁₀ δ at each ε (longer is stronger)',
        bars: curve.map((c) => {
          const value = -Math.log10(Math.max(c.delta, 1e-300));
          return { label: `ε = ${formatNumber(c.epsilon, 3)}`, value, tone: 'safe' as const, text: `δ = 1e-${value.toFixed(1)}` };
        }),
      },
    ],
    selection === undefined ? [] : [{ kind: 'paragraph', text: ["Each ε includes the search's ε_sel = ", data(selection), '; δ is d(k, β, ε − ε_sel).'] }],
    [{ kind: 'table', head: [{ text: 'ε' }, { text: 'δ' }], rows: curve.map((c) => [n(formatNumber(c.epsilon, 4)), n(c.delta.toExponential(4))]) }],
  ];
  const numeric = (text: string): ViewCell => ({ text, n: true });
  const partLines: Block[][] = [
    [
      { kind: 'heading', level: 2, text: 'Parts' },
      { kind: 'paragraph', text: ['Model: ', data(a.model ?? ''), '. Neighbours: ', data(a.neighbours), '.'] },
    ],
    [
      {
        kind: 'table',
        head: [{ text: 'Part' }, ...(internal ? [numeric('Records')] : []), numeric('Released'), numeric('Classes'), numeric('Worst class'), ...(internal ? [numeric('Suppressed')] : [])],
        rows: parts.map((p) => [n(p.part), ...(internal ? [n(formatNumber(p.size))] : []), n(formatNumber(p.released)), n(formatNumber(p.classes)), n(formatNumber(p.worst, 4)), ...(internal ? [n(formatNumber(p.suppressed))] : [])]),
      },
    ],
    ...(a.epsilonPrime
      ? [
          [
            {
              kind: 'paragraph',
              text: 'A DP mechanism with ε run on one part (a fixed-size random subset; β = ⌈n/P⌉/n, the share of the largest part) is ε′-DP under bounded neighbours, datasets of equal size differing in one record (Theorem 2); the report uses min(ε, ε′):',
            } as const,
          ],
          [{ kind: 'table', head: [{ text: 'ε' }, { text: 'ε′' }, { text: 'reported' }], rows: a.epsilonPrime.map((e) => [n(e.epsilon), n(formatNumber(e.epsilonPrime, 6)), n(formatNumber(e.reported, 6))]) } as const],
        ]
      : [[]]),
  ];
  return [
    [{ kind: 'heading', level: 2, text: 'Generalization' }],
    [{ kind: 'paragraph', text: [...choice, a.k !== undefined ? '; a class is one distinct released tuple over every released column (strongly-safe k-anonymization)' : '', '.'] }],
    [
      {
        kind: 'table',
        head: [{ text: 'Column' }, { text: 'Hierarchy' }, { text: 'Level' }, { text: 'Example' }, ...(cells ? [{ text: 'Cells suppressed (*)' }] : [])],
        rows: columns,
      },
    ],
    [{ kind: 'heading', level: 2, text: 'Classes' }],
    [
      {
        kind: 'paragraph',
        text: [
          ...classes,
          ...(suppressed !== undefined ? [' ', data(formatNumber(suppressed)), ` record(s) were suppressed (internal figure${report.method.levels !== undefined ? '' : ': the exact count is outside the theorem'}).`] : []),
          ...(a.sampled !== undefined && Number.isFinite(a.sampled) ? [' ', data(formatNumber(a.sampled)), ' records were in the sample.'] : []),
          ' Generalization loss: ',
          data(formatNumber(report.utility.generalizationLoss, 3)),
          '.',
        ],
      },
    ],
    a.k !== undefined
      ? [{ kind: 'paragraph', text: ['k = ', data(a.k), ', sampling rate β = ', data(formatNumber(a.sampling, 6)), ' (exact ', data(a.samplingExact ?? ''), '). ', data(a.choice ?? ''), '. Neighbours: ', data(a.neighbours), '.'] }]
      : [],
    ...(curve.length ? curveLines : [[]]),
    ...(parts.length ? partLines : [[]]),
  ];
}
