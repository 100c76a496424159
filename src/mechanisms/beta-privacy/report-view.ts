import { formatNumber } from '../../common/format/numbers.js';
import { betaKeyFigures } from './key-figures.js';
import { betaPreview } from './preview.js';
import type { BetaReport, Report } from '../../common/report/report-model.js';
import { data, type Block, type ReportView, type ViewBar, type ViewCell } from '../../common/report/view-model.js';

const n = (text: string | number): ViewCell => ({ text: [data(text)], n: true });
const cell = (text: string): ViewCell => ({ text: [data(text)] });

/**
 * β-privacy's part of the report: per-value thresholds and bounds, bucket sizes, baselines, attacks,
 * in words; the lemma, the loss and error formulas and the search's internals in "The mathematics".
 */
export function betaPrivacyView(report: Report): ReportView {
  return report.beta ? { sections: betaSections(report, report.beta), mathematics: betaMathematics(report, report.beta), keyFigures: betaKeyFigures(report), preview: betaPreview(report) } : { sections: [], keyFigures: betaKeyFigures(report), preview: betaPreview(report) };
}

/** The appendix: where the thresholds' feasibility comes from and how the blur is counted. */
function betaMathematics(report: Report, beta: BetaReport): Block[][] {
  return [
    [{ kind: 'heading', level: 3, text: 'Buckets and thresholds (β-privacy)' }],
    [{ kind: 'paragraph', text: 'Buckets meeting every threshold exist when no value v is more frequent in the input than its threshold allows (Lemma 3.7 of the paper), f_v being the share of the records holding v:' }],
    [{ kind: 'paragraph', tone: 'formula', text: 'f_v ≤ β_v for every value v' }],
    [{ kind: 'paragraph', text: 'The loss of a bucketing is the sum of its squared bucket sizes, and the mean squared error of a count estimated from the buckets follows from it (§5 of the paper), n records in buckets B:' }],
    [{ kind: 'paragraph', tone: 'formula', text: 'loss = Σ_B |B|²;  MSE = Σ_B |B|² / n − 1' }],
    [{ kind: 'paragraph', text: ['The count queries of the utility figure: ', data(report.utility.queryPool), '.'] }],
    beta.multiSize ? [{ kind: 'paragraph', tone: 'meta', text: ['MultiSizeBucketing: ', data(beta.multiSize.calls), ' TwoSizeBucketing calls, recursion depth ', data(beta.multiSize.depth), '.'] }] : [],
  ];
}

function betaSections(report: Report, beta: BetaReport): Block[][] {
  const bounds = report.guarantee.maxInference;
  // The input's counts are internal; the published report leaves their columns out.
  const counted = beta.values.some((v) => v.count !== undefined);
  const valueRows = beta.values.map((v): ViewCell[] => {
    // Values are data: a value named "constructor" must not find Object.prototype's.
    const bound = bounds && Object.hasOwn(bounds, v.value) ? bounds[v.value] : undefined;
    const verdict: ViewCell = { text: bound ? [bound.holds ? { verdict: 'ok', text: '≤ β' } : { verdict: 'bad', text: 'exceeds β' }] : '' };
    return [
      cell(v.value),
      ...(counted ? [n(formatNumber(v.count)), n(formatNumber(v.frequency, 4))] : []),
      { text: [data(v.betaExact), ' (', data(formatNumber(v.beta, 4)), ')'], n: true },
      ...(counted ? [{ ...n(bound && bound.count !== undefined ? `${bound.count}/${bound.size} = ${formatNumber(bound.value, 4)}` : 'n/a'), br: true } as const] : []),
      counted ? verdict : { ...verdict, br: true },
    ];
  });
  const bar = (label: string, value: number, tone: ViewBar['tone']): ViewBar => ({ label, value, tone, text: formatNumber(value) });
  const sizes = Object.entries(beta.chosen.sizes).map(([size, count]) => bar(`size ${size}`, count, 'neutral'));
  const settings = [beta.chosen, ...(beta.twoSize && beta.chosen.algorithm !== 'two-size' ? [beta.twoSize] : []), ...(beta.multiSize && beta.chosen.algorithm !== 'multi-size' ? [beta.multiSize] : []), ...(beta.anatomy && beta.chosen.algorithm !== 'anatomy' ? [beta.anatomy] : [])];
  const settingRows = settings.map((s): ViewCell[] => [
    { text: [data(s.algorithm), s === beta.chosen ? ' (released)' : ''] },
    cell(Object.entries(s.sizes).map(([k, count]) => `${count}×${k}`).join(', ') || '—'),
    n(formatNumber(s.loss)),
    n(formatNumber(s.mse, 3)),
    s.feasible ? { text: 'yes' } : cell(s.note ?? 'no'),
  ]);
  const errors = report.utility.relativeError;
  const errorBars = [
    ...(errors.release !== undefined ? [bar(`${beta.chosen.algorithm} (this release)`, errors.release, 'safe')] : []),
    ...(errors.anatomy !== undefined && beta.anatomy ? [bar(`anatomy, ℓ = ${beta.anatomy.l}`, errors.anatomy, 'neutral')] : []),
  ];
  const corruption = beta.corruption ?? [];
  const shown = corruption.filter((c, i) => i < 12 || c.corrupted === corruption.length);
  const fakes = beta.fakeValues > 0;
  const corruptionLines: Block[][] = [
    [{ kind: 'heading', level: 2, text: 'Corruption attack' }],
    [
      {
        kind: 'paragraph',
        text: ['An adversary who learns the true values of some other records of a bucket (c of them) can cross those values off its list. The table gives, for each c, the highest chance over all buckets with which such an adversary infers that a remaining record holds a given value', ...(fakes ? [', without and with the ', data(beta.fakeValues), ' fake value(s) per bucket'] : []), ':'],
      },
    ],
    [
      {
        kind: 'table',
        head: [{ text: 'c' }, { text: 'Without fakes' }, ...(fakes ? [{ text: 'With fakes' }] : [])],
        rows: shown.map((c) => [n(c.corrupted), n(formatNumber(c.withoutFakes, 3)), ...(fakes ? [n(formatNumber(c.withFakes, 3))] : [])]),
      },
    ],
  ];
  return [
    [{ kind: 'heading', level: 2, text: 'Sensitive values and their thresholds' }],
    [
      {
        kind: 'paragraph',
        text: [
          'Each value of the sensitive column “',
          data(beta.sensitive),
          '” has a threshold β: the most an adversary may infer that a person holds it. Buckets that meet every threshold can be formed because no value is more frequent in the input than its threshold allows; buckets of ',
          data(beta.sizeRange.min),
          ' to ',
          data(beta.sizeRange.max),
          ' records were searched.',
        ],
      },
    ],
    [
      {
        kind: 'table',
        head: [{ text: 'Value' }, ...(counted ? [{ text: 'Records' }, { text: 'Share of records' }] : []), { text: 'Threshold β' }, ...(counted ? [{ text: 'Largest share in a bucket' }] : []), { text: '' }],
        rows: valueRows,
      },
    ],
    [{ kind: 'heading', level: 2, text: 'Buckets' }],
    [{ kind: 'paragraph', text: 'Larger buckets hide a person better and blur the counts more: the loss and the mean squared error of a count estimated from the buckets grow with the bucket sizes (lower is more useful).' }],
    sizes.length ? [{ kind: 'bars', title: 'Number of buckets per size', bars: sizes }] : [],
    [
      {
        kind: 'table',
        head: [{ text: 'Setting' }, { text: 'Buckets' }, { text: 'Loss (squared bucket sizes)' }, { text: 'Mean squared error' }, { text: 'Feasible' }],
        rows: settingRows,
      },
    ],
    [{ kind: 'heading', level: 2, text: 'Utility' }],
    [{ kind: 'paragraph', text: 'Random count queries that fix a sensitive value (how many records with some of the other columns\' values hold it), answered from the release and compared with the true answers; how the queries are drawn is in “The mathematics”.' }],
    [errorBars.length ? { kind: 'bars', title: 'Mean relative error of sensitive-value count queries (lower is better)', bars: errorBars } : { kind: 'paragraph', tone: 'meta', text: 'Measured when the job runs.' }],
    ...(shown.length ? corruptionLines : [[]]),
  ];
}
