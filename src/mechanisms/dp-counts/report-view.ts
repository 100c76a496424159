import { formatNumber } from '../../common/format/numbers.js';
import { dpKeyFigures } from './key-figures.js';
import { dpPreview } from './preview.js';
import type { DpReport, Report } from '../../common/report/report-model.js';
import { data, type Block, type ReportView, type ViewCell } from '../../common/report/view-model.js';

const n = (text: string | number): ViewCell => ({ text: [data(text)], n: true });
const cell = (text: string): ViewCell => ({ text: [data(text)] });
const head = (text: string, numeric = false): ViewCell => (numeric ? { text, n: true } : { text });

/** DP counts: sensitivity and scale, accounting, and the two attacks run on the release. */
export function dpCountsView(report: Report): ReportView {
  const dp = report.dp;
  return { sections: dp ? dpSections(dp) : [], keyFigures: dpKeyFigures(report), preview: dpPreview(report) };
}

function dpSections(dp: DpReport): Block[][] {
  const filtering = dp.filtering ?? [];
  const inference = dp.inference ?? [];
  const accounting: Block = {
    kind: 'facts',
    lines: true,
    rows: [
      ['Answers', [data(formatNumber(dp.queries)), ' (', data(formatNumber(dp.distinctQueries)), ' distinct; a repeated query returns its cached noisy answer)']],
      ['Sensitivity Δ', [data(formatNumber(dp.sensitivity)), ': ', data(dp.sensitivityRule)]],
      ['Noise', [data(dp.noise), ', scale b = ', data(formatNumber(dp.scale, 6)), ...(dp.grid ? ['; ', data(dp.grid)] : [])]],
      ['Correlation', [data(dp.correlation)]],
      ['ε per answer', [data(formatNumber(dp.epsilonPerAnswer, 6))]],
      dp.epsilonEffective !== undefined
        ? ['ε_eff, worst one-person change (tail slope)', [data(formatNumber(dp.epsilonEffective, 6)), ' = √(ΔᵀR⁻¹Δ)/b — the rate the privacy loss grows far from the true answers, not a bound: the joint release is not claimed ε-DP']]
        : null,
      dp.parts > 1
        ? [
            'Parts',
            [
              data(dp.parts),
              ' parts, each record assigned to one independently and uniformly (a Poisson sample at rate 1/',
              data(dp.parts),
              ' per part); answers of one part alone: ',
              data((dp.epsilonPrime ?? []).map((e) => `ε = ${e.epsilon}: ε′ = ln(1 + (e^ε − 1)/${dp.parts}) = ${formatNumber(e.epsilonPrime, 6)}, reported min(ε, ε′) = ${formatNumber(e.reported, 6)}`).join('; ')),
            ],
          ]
        : null,
    ],
  };
  const percent = (v: number): string => `${(100 * v).toFixed(1)}%`;
  const filteringLines: Block[][] = [
    [
      { kind: 'heading', level: 2, text: 'Filtering attack' },
      {
        kind: 'paragraph',
        text: "A Wiener smoother that knows the signal's and the noise's autocovariance tries to strip the noise from each released series. Noise removal NR = 1 − MSE_filtered/MSE_raw is the share of the noise the filter strips (0 or less: none); gain G = MSE_shrink/MSE_filtered compares with shrinking towards the mean (G ≈ 1: correlation gives nothing; with one W per stream the realized noise level varies, so read G with NR).",
      },
    ],
    [
      {
        kind: 'bars',
        title: 'Noise removed by the filter (lower is safer)',
        bars: filtering.flatMap((f) => [
          { label: `${f.series}: IID Laplace`, value: Math.max(0, f.removalIid), tone: 'danger' as const, text: percent(Math.max(0, f.removalIid)) },
          { label: `${f.series}: this release`, value: Math.max(0, f.removalRelease), tone: 'safe' as const, text: percent(Math.max(0, f.removalRelease)) },
        ]),
      },
    ],
    [
      {
        kind: 'table',
        head: [head('Series'), head('Length', true), head('K', true), head('NR, IID', true), head('NR, release', true), head('G, IID', true), head('G, release', true), head('MSE raw', true), head('MSE filtered', true)],
        rows: filtering.map((f) => [cell(f.series), n(f.length), n(f.halfWidth), n(formatNumber(f.removalIid, 3)), n(formatNumber(f.removalRelease, 3)), n(formatNumber(f.gainIid, 3)), n(formatNumber(f.gainRelease, 3)), n(formatNumber(f.mseRaw, 3)), n(formatNumber(f.mseFiltered, 3))]),
      },
    ],
  ];
  const inferenceLines: Block[][] = [
    [
      { kind: 'heading', level: 2, text: 'Differential-inference attack (internal view)' },
      { kind: 'paragraph', text: 'From noisy COUNT(group) and COUNT(group ∧ value) the adversary estimates the share of the value in the group; large groups are inferred precisely even though every count is noisy.' },
    ],
    [
      {
        kind: 'table',
        head: [head('Group'), head('Value'), head('o1', true), head('o2', true), head('True share', true), head('Mean ≈', true), head('SD ≈', true), head('Pr[error > +ε]', true), head('Pr[error < −ε]', true)],
        rows: inference.map((g) => [cell(g.group), cell(g.value), n(formatNumber(g.o1)), n(formatNumber(g.o2)), n(formatNumber(g.f, 3)), n(formatNumber(g.meanApprox, 4)), n(formatNumber(g.sdApprox, 4)), n(formatNumber(g.pAbove, 4)), n(formatNumber(g.pBelow, 4))]),
      },
      ...(inference.length ? [{ kind: 'paragraph', tone: 'meta', text: ['ε of the attack: ', data(inference[0]!.attackEpsilon), '; 20,000 simulated draws per group.'] } as const] : []),
    ],
  ];
  // The lines as report.html has always laid them out: an attack the report lacks leaves an empty line.
  return [
    [{ kind: 'heading', level: 2, text: 'Noise and accounting' }],
    [accounting],
    ...(filtering.length ? filteringLines : [[]]),
    ...(inference.length ? inferenceLines : [[]]),
  ];
}
