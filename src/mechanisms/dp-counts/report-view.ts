import { formatNumber } from '../../common/format/numbers.js';
import { dpKeyFigures } from './key-figures.js';
import { dpPreview } from './preview.js';
import type { DpReport, Report } from '../../common/report/report-model.js';
import { data, type Block, type ReportView, type ViewCell } from '../../common/report/view-model.js';

const n = (text: string | number): ViewCell => ({ text: [data(text)], n: true });
const cell = (text: string): ViewCell => ({ text: [data(text)] });
const head = (text: string, numeric = false): ViewCell => (numeric ? { text, n: true } : { text });

/** DP counts: sensitivity and scale, accounting, and the two attacks run on the release, in words; their formulas in "The mathematics". */
export function dpCountsView(report: Report): ReportView {
  const dp = report.dp;
  return dp ? { sections: dpSections(dp), mathematics: dpMathematics(dp), keyFigures: dpKeyFigures(report), preview: dpPreview(report) } : { sections: [], keyFigures: dpKeyFigures(report), preview: dpPreview(report) };
}

/** The appendix: the effective ε, a part's ε′, and the attacks' measures. */
function dpMathematics(dp: DpReport): Block[][] {
  const lines: Block[][] = [[{ kind: 'heading', level: 3, text: 'Noise and attacks (DP counts)' }], [{ kind: 'paragraph', text: ['The noise: ', data(dp.noise), '.'] }]];
  if (dp.epsilonEffective !== undefined) {
    lines.push([
      { kind: 'paragraph', text: 'The tail slope of the worst one-person change, for sensitivity vector Δ, noise correlation matrix R and scale b (a rate, not a bound on the privacy loss):' },
      { kind: 'paragraph', tone: 'formula', text: 'ε_eff = √(ΔᵀR⁻¹Δ) / b' },
    ]);
  }
  if (dp.parts > 1) {
    lines.push([
      { kind: 'paragraph', text: ['Answers of one part alone, each record in it with probability 1/', data(dp.parts), ' independently (amplification by Poisson sampling):'] },
      { kind: 'paragraph', tone: 'formula', text: [data(`ε′ = ln(1 + (e^ε − 1)/${dp.parts}), reported min(ε, ε′)`)] },
    ]);
  }
  if ((dp.filtering ?? []).length > 0) {
    lines.push([
      { kind: 'paragraph', text: 'Filtering attack: the Wiener smoother of half-width K knows the autocovariance of the signal and of the noise. MSE is the mean squared error of a series against the true counts: raw (the released answers), filtered (the smoother\'s output), shrink (shrinking towards the mean). Noise removal NR and gain G:' },
      { kind: 'paragraph', tone: 'formula', text: 'NR = 1 − MSE_filtered / MSE_raw;  G = MSE_shrink / MSE_filtered' },
    ]);
  }
  if ((dp.inference ?? []).length > 0) {
    lines.push([
      { kind: 'paragraph', text: 'Differential inference: o1 = COUNT(group) and o2 = COUNT(group ∧ value) are the true counts, f = o2/o1 the true share; the adversary divides their noisy answers, ô2/ô1. Its mean and standard deviation are approximated as below; the chances over and under are the shares of the simulated draws whose relative error is above ε or below −ε:' },
      { kind: 'paragraph', tone: 'formula', text: 'mean ≈ f·(1 + 2b²/o1²);  SD ≈ √(2b²/o1² · (1 + f²));  Pr[(ô2/ô1 − f)/f > ε],  Pr[(ô2/ô1 − f)/f < −ε]' },
    ]);
  }
  return lines;
}

function dpSections(dp: DpReport): Block[][] {
  const filtering = dp.filtering ?? [];
  const inference = dp.inference ?? [];
  const accounting: Block = {
    kind: 'facts',
    lines: true,
    rows: [
      ['Answers', [data(formatNumber(dp.queries)), ' (', data(formatNumber(dp.distinctQueries)), ' distinct; a repeated query returns its cached noisy answer)']],
      ['Most one person changes the answers (sensitivity Δ)', [data(formatNumber(dp.sensitivity)), ': ', data(dp.sensitivityRule)]],
      // The noise's name; how it is drawn (its formula) is in the appendix.
      ['Noise', [data(dp.noise.split(':')[0]!), ', scale b = ', data(formatNumber(dp.scale, 6)), ...(dp.grid ? ['; ', data(dp.grid)] : [])]],
      ['Correlation', [data(dp.correlation)]],
      ['ε per answer', [data(formatNumber(dp.epsilonPerAnswer, 6))]],
      dp.epsilonEffective !== undefined
        ? ['Effective ε of the worst one-person change (tail slope)', [data(formatNumber(dp.epsilonEffective, 6)), ': the rate the privacy loss grows far from the true answers, not a bound; the answers together are not claimed ε-differentially private']]
        : null,
      dp.parts > 1
        ? [
            'Parts',
            [
              data(dp.parts),
              ' parts, each record assigned to one independently and uniformly (a Poisson sample at rate 1/',
              data(dp.parts),
              ' per part); answers of one part alone are ε′-differentially private, the report listing the smaller of ε and ε′: ',
              data((dp.epsilonPrime ?? []).map((e) => `ε = ${e.epsilon}: ε′ = ${formatNumber(e.epsilonPrime, 6)}, reported ${formatNumber(e.reported, 6)}`).join('; ')),
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
        text: "An adversary who knows how the true counts and the noise vary along each released series smooths the series to strip the noise off. The noise removed is the share of the noise the smoothing strips (0 or less: none); the gain compares it with simply shrinking the answers towards their mean (about 1: the noise's correlation gives the adversary nothing; with one W per stream the realized noise level varies, so read the gain with the noise removed). The formulas are in “The mathematics”.",
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
        head: [head('Series'), head('Length', true), head('Filter half-width K', true), head('Noise removed, independent noise', true), head('Noise removed, release', true), head('Gain, independent noise', true), head('Gain, release', true), head('Squared error before', true), head('Squared error after', true)],
        rows: filtering.map((f) => [cell(f.series), n(f.length), n(f.halfWidth), n(formatNumber(f.removalIid, 3)), n(formatNumber(f.removalRelease, 3)), n(formatNumber(f.gainIid, 3)), n(formatNumber(f.gainRelease, 3)), n(formatNumber(f.mseRaw, 3)), n(formatNumber(f.mseFiltered, 3))]),
      },
    ],
  ];
  const inferenceLines: Block[][] = [
    [
      { kind: 'heading', level: 2, text: 'Differential-inference attack (internal view)' },
      { kind: 'paragraph', text: 'Dividing the noisy count of records with a value in a group by the noisy count of the group, the adversary estimates the share of the value in the group; large groups are inferred precisely even though every count is noisy.' },
    ],
    [
      {
        kind: 'table',
        head: [head('Group'), head('Value'), head('Records in the group', true), head('Records with the value', true), head('True share', true), head('Estimate, mean (approx.)', true), head('Estimate, spread (SD, approx.)', true), head('Chance over by more than ε', true), head('Chance under by more than ε', true)],
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
