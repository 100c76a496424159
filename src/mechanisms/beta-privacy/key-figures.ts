import { formatNumber as fmt } from '../../common/format/numbers.js';
import type { Report } from '../../common/report/report-model.js';
import { figure, type Block } from '../../common/report/view-model.js';

/** β-privacy's key figures: the sensitive column, the buckets, their blur and every value's inference bound. */
export function betaKeyFigures(report: Report): Block[] {
  const b = report.beta;
  if (!b) return [];
  const rows = [
    figure('Sensitive column', b.sensitive),
    figure('Buckets', Object.entries(b.chosen.sizes).map(([s, n]) => `${fmt(n)} of size ${s}`).join(', ')),
    figure('Blur of the buckets: loss / mean squared error', `${fmt(b.chosen.loss)} / ${fmt(b.chosen.mse, 3)}${b.anatomy ? ` (Anatomy ℓ = ${b.anatomy.l}: ${b.anatomy.feasible ? fmt(b.anatomy.mse, 3) : 'infeasible'})` : ''}`),
    ...Object.entries(report.guarantee.maxInference ?? {}).map(([value, bound]) =>
      figure(`Inference bound “${value}”`, `${bound.count !== undefined ? `${bound.count}/${bound.size} ` : ''}≤ β = ${bound.betaExact}: ${bound.holds ? 'holds' : 'VIOLATED'}`),
    ),
  ];
  return [{ kind: 'facts', rows }];
}
