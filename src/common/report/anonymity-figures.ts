import { formatNumber as fmt } from '../format/numbers.js';
import type { Report } from './report-model.js';
import { figure, type Block, type Text } from './view-model.js';

/**
 * The key figures of the methods that recode quasi-identifiers into classes (safe k-anonymity,
 * partitioned recoding, global recoding): k and β, (ε, δ), the model, the classes, the loss and
 * every recoded column's level.
 */
export function anonymityKeyFigures(report: Report): Block[] {
  const a = report.anonymity;
  if (!a) return [];
  const rows: (readonly [Text, Text])[] = [];
  if (a.k !== undefined) rows.push(figure('k / sampling rate β', `${a.k} / ${fmt(a.sampling, 6)}`));
  if (report.guarantee.epsilon !== undefined && report.guarantee.delta !== undefined) rows.push(figure('(ε, δ)', `(${fmt(report.guarantee.epsilon, 4)}, ${report.guarantee.delta.toExponential(3)})`));
  if (a.model && report.method.levels !== undefined) {
    // Global recoding: the chosen transformation in its lattice (the counts and the measure are internal figures).
    rows.push(figure('Model', a.model));
    const internal = report.method.internal;
    const satisfying = internal?.['satisfyingTransformations'];
    const atLeast = internal?.['satisfyingTransformationsAtLeast'];
    const nodes = report.method.derived['latticeNodes'];
    if (satisfying !== undefined || atLeast !== undefined) rows.push(figure('Transformations meeting the models (internal)', `${satisfying !== undefined ? fmt(satisfying) : `at least ${fmt(atLeast)}`} of ${typeof nodes === 'number' ? fmt(nodes) : String(nodes)}`));
    if (internal?.['measureValue'] !== undefined) rows.push(figure(`Measure “${String(report.method.parameters['measure'])}” of the optimum (internal)`, fmt(internal['measureValue'], 6)));
  } else if (a.model) rows.push(figure('Model / parts', `${a.model} / ${a.parts?.length ?? 1}`));
  rows.push(figure('Released classes / smallest class', `${fmt(report.risk.classes)} / ${fmt(report.risk.minClassSize)}`));
  if (report.output?.suppressed !== undefined) rows.push(figure('Suppressed records (internal)', fmt(report.output.suppressed)));
  rows.push(figure('Generalization loss', fmt(report.utility.generalizationLoss, 3)));
  for (const c of a.columns.filter((x) => x.level > 0)) rows.push(figure(`Level of “${c.name}”`, `${c.level} of ${c.depth - 1} (${c.hierarchy})`));
  return [{ kind: 'facts', rows }];
}
