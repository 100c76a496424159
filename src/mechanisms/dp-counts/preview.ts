import { formatNumber } from '../../common/format/numbers.js';
import type { Report } from '../../common/report/report-model.js';
import { data, type Block } from '../../common/report/view-model.js';

/** DP counts' preview in the risk step: the counts, their sensitivity and noise, and what the correlation does to the guarantee. */
export function dpPreview(report: Report): Block[] {
  const dp = report.dp;
  if (!dp) return [];
  const blocks: Block[] = [
    { kind: 'heading', level: 2, text: [data(report.guarantee.name)] },
    {
      kind: 'paragraph',
      text: [
        data(formatNumber(dp.queries)),
        ' counts; Δ = ',
        data(dp.sensitivity),
        ' (',
        data(dp.sensitivityRule),
        '); every count gets noise of scale b = ',
        data(dp.scale.toPrecision(4)),
        ', so each is ',
        data(dp.epsilonPerAnswer.toPrecision(3)),
        '-DP on its own.',
      ],
    },
  ];
  if (dp.epsilonEffective !== undefined) {
    blocks.push({
      kind: 'callout',
      tone: 'warn',
      text: [
        'The noise is correlated: the worst one-person change has a tail slope ε_eff = ',
        data(dp.epsilonEffective.toPrecision(4)),
        ', the rate its privacy loss grows far from the true answers, not a bound on it. The joint release is not claimed to be ε-DP.',
      ],
    });
  }
  blocks.push({ kind: 'paragraph', tone: 'meta', text: [data(report.utility.queryPool), '.'] });
  return [{ kind: 'card', blocks }];
}
