import { formatNumber as fmt } from '../../common/format/numbers.js';
import type { Report } from '../../common/report/report-model.js';
import { figure, type Block } from '../../common/report/view-model.js';

/** DP counts' key figures: the answers, the noise and its accounting, the filtering attacks. */
export function dpKeyFigures(report: Report): Block[] {
  const dp = report.dp;
  if (!dp) return [];
  const rows = [
    figure('Answers / distinct', `${fmt(dp.queries)} / ${fmt(dp.distinctQueries)}`),
    figure('Sensitivity (the most one person changes the answers) / noise scale', `${fmt(dp.sensitivity)} / ${fmt(dp.scale, 6)}`),
    figure('ε per answer', fmt(dp.epsilonPerAnswer, 6)),
    ...(dp.epsilonEffective !== undefined ? [figure('Effective ε of the worst one-person change (a tail slope, not a bound)', fmt(dp.epsilonEffective, 6))] : []),
    figure('Noise', `${dp.noise}; ${dp.correlation}`),
    ...(dp.filtering ?? []).map((f) => figure(`Filtering attack “${f.series}”`, `noise removed: IID ${fmt(f.removalIid, 3)}, release ${fmt(f.removalRelease, 3)} (gain ${fmt(f.gainIid, 3)} / ${fmt(f.gainRelease, 3)})`)),
  ];
  return [{ kind: 'facts', rows }];
}
