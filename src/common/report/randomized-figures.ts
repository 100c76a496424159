import { formatNumber as fmt } from '../format/numbers.js';
import type { ReportFigures } from '../mechanism.js';
import type { Report } from './report-model.js';
import { figure, type Block, type Text, type ViewBar } from './view-model.js';

/**
 * The randomized-response methods' key figures: the micro groups and how many fail the (ε,δ) test,
 * before and (where the report holds it) after; the chart sets this release beside plain
 * perturbation only where the release meets the test.
 */
export function randomizedKeyFigures(report: Report, figures: Pick<ReportFigures, 'releaseMeetsReconstructionTest'>): Block[] {
  const risk = report.risk;
  if (risk.microGroups === undefined) return [];
  const rows: (readonly [Text, Text])[] = [figure('Micro groups', fmt(risk.microGroups))];
  // The external variant leaves out what the test says of the true data: only what it holds is shown.
  if (risk.violatingBefore !== undefined) rows.push(figure('Leaking micro groups, plain perturbation', fmt(risk.violatingBefore)));
  if (risk.violatingAfter !== undefined) rows.push(figure('Leaking micro groups, this release', fmt(risk.violatingAfter)));
  const bars: ViewBar[] = [
    ...(risk.violatingBefore !== undefined ? [{ label: 'plain perturbation', value: risk.violatingBefore, tone: 'danger' as const, text: fmt(risk.violatingBefore) }] : []),
    ...(figures.releaseMeetsReconstructionTest && risk.violatingAfter !== undefined ? [{ label: 'this release', value: risk.violatingAfter, tone: 'safe' as const, text: fmt(risk.violatingAfter) }] : []),
  ];
  return [{ kind: 'facts', rows }, ...(bars.length > 0 ? [{ kind: 'bars', title: 'Micro groups that fail the (ε,δ) test', bars } as const] : [])];
}
