import { formatNumber } from '../../common/format/numbers.js';
import type { Report } from '../../common/report/report-model.js';
import { data, type Block, type ViewBar } from '../../common/report/view-model.js';

/** β-privacy's preview in the risk step: a β-private bucketization exists, what the buckets lose against the baselines, their sizes. */
export function betaPreview(report: Report): Block[] {
  const b = report.beta;
  if (!b) return [];
  const bars: ViewBar[] = [
    { label: `${b.chosen.algorithm} buckets`, value: b.chosen.mse, tone: 'safe', text: b.chosen.mse.toFixed(3) },
    ...(b.twoSize && b.chosen.algorithm !== 'two-size' ? [{ label: 'two sizes', value: b.twoSize.mse, tone: 'neutral' as const, text: b.twoSize.mse.toFixed(3) }] : []),
    ...(b.anatomy ? [{ label: `Anatomy (ℓ = ${b.anatomy.l})`, value: b.anatomy.mse, tone: 'muted' as const, text: `${b.anatomy.mse.toFixed(3)}${b.anatomy.feasible ? '' : ' (infeasible)'}` }] : []),
  ];
  return [
    {
      kind: 'callout',
      tone: 'ok',
      title: 'A β-private bucketization exists.',
      text: "No value is more frequent in the whole file than its β allows, so buckets that meet every β can be formed.",
    },
    { kind: 'bars', title: 'Information lost by the bucketing (mean squared error, lower is better)', bars },
    { kind: 'paragraph', text: ['Buckets: ', data(Object.entries(b.chosen.sizes).map(([size, n]) => `${formatNumber(n)} of ${size} records`).join(', ')), '.'] },
  ];
}
