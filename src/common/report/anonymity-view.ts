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
  return report.anonymity ? { sections: anonymitySections(report, report.anonymity), mathematics: anonymityMathematics(report, report.anonymity), keyFigures: anonymityKeyFigures(report), preview: anonymityPreview(report) } : { sections: [], keyFigures: anonymityKeyFigures(report), preview: anonymityPreview(report) };
}

/** The appendix: how k and the levels were chosen, δ of the curve, the neighbours, and ε′ of a part. */
function anonymityMathematics(report: Report, a: AnonymityReport): Block[][] {
  const selection = report.method.derived['epsilonSelection'];
  return [
    [{ kind: 'heading', level: 3, text: 'The recoding' }],
    a.choice !== undefined ? [{ kind: 'paragraph', text: [a.k !== undefined ? 'How k and the levels were chosen: ' : 'The levels chosen: ', data(a.choice), '.'] }] : [],
    selection !== undefined && (a.curve ?? []).length > 0 ? [{ kind: 'paragraph', text: ["Each ε of the curve includes the search's ε_sel = ", data(selection), '; δ is d(k, β, ε − ε_sel), d as in the formula above.'] }] : [],
    a.epsilonPrime
      ? [
          { kind: 'paragraph', text: "ε′ of a part (Theorem 2 of the partitioned recoding paper): a mechanism that is ε-DP, run on one part, a fixed-size random subset whose share of the records is at most β = ⌈n/P⌉/n (the largest part's), is ε′-DP under bounded neighbours:" },
          { kind: 'paragraph', tone: 'formula', text: 'ε′ = ln((e^ε·β + 1 − β) / (1 − β))' },
        ]
      : [],
    [{ kind: 'paragraph', text: ['Neighbours: ', data(a.neighbours), '.'] }],
  ];
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
      ? ['The levels were chosen on this data by a search over the lattice of level combinations (its choice and how it was made are in “The mathematics”)']
      : selection === undefined
        ? ['The recoding was fixed in the job, before any record was read']
        : ['The recoding was chosen on the sample by a differentially private search, which spends ε = ', data(selection), ' of the budget'];
  const classes = cells
    ? [data(formatNumber(report.risk.classes ?? 0)), ' distinct released tuples; with "*" matching any value, every released record is compatible with at least ', data(formatNumber(report.risk.minClassSize ?? 0)), ' records (local suppression).']
    : [data(formatNumber(report.risk.classes ?? 0)), ' released classes; the smallest has ', data(formatNumber(report.risk.minClassSize ?? 0)), ' records.'];
  const suppressed = report.output?.suppressed;
  const curveLines: Block[][] = [
    [{ kind: 'heading', level: 2, text: 'The (ε, δ) curve' }],
    [{ kind: 'paragraph', text: ['Each row is an ε and the δ the theorem gives for it: the release is (ε, δ)-differentially private at every row at once', selection === undefined ? '' : ["; each ε includes the private search's ", data(selection)], ', and a smaller ε never comes with a smaller δ.'].flat() }],
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
    [{ kind: 'table', head: [{ text: 'ε' }, { text: 'δ' }], rows: curve.map((c) => [n(formatNumber(c.epsilon, 4)), n(c.delta.toExponential(4))]) }],
  ];
  const numeric = (text: string): ViewCell => ({ text, n: true });
  const partLines: Block[][] = [
    [
      { kind: 'heading', level: 2, text: 'Parts' },
      { kind: 'paragraph', text: ['The records were split at random into parts, all generalized with the same recoding; every released class of every part meets ', data(a.model ?? ''), '.'] },
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
              text: 'A differentially private method with budget ε, run later on one part alone, is also ε′-differentially private for inputs of equal size that differ in one record (the formula is in “The mathematics”); the report lists the smaller of ε and ε′:',
            } as const,
          ],
          [{ kind: 'table', head: [{ text: 'ε' }, { text: 'ε′' }, { text: 'reported' }], rows: a.epsilonPrime.map((e) => [n(e.epsilon), n(formatNumber(e.epsilonPrime, 6)), n(formatNumber(e.reported, 6))]) } as const],
        ]
      : [[]]),
  ];
  return [
    [{ kind: 'heading', level: 2, text: 'Generalization' }],
    [{ kind: 'paragraph', text: [...choice, a.k !== undefined ? '; a class is the released records identical in every released column (strongly-safe k-anonymization)' : '', '.'] }],
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
      ? [{ kind: 'paragraph', text: ['Every released class holds at least k = ', data(a.k), ' records; each record entered the sample with probability β = ', data(formatNumber(a.sampling, 6)), ' (exactly ', data(a.samplingExact ?? ''), '). How k and the levels were chosen is in “The mathematics”.'] }]
      : [],
    ...(curve.length ? curveLines : [[]]),
    ...(parts.length ? partLines : [[]]),
  ];
}
