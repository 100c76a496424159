import { formatNumber } from '../format/numbers.js';
import type { Report } from './report-model.js';
import { data, type Block } from './view-model.js';

/**
 * The risk step's preview of the methods that recode quasi-identifiers into classes: the (ε, δ)
 * the release would have, the classes, the loss, the δ curve and the parts.
 */
export function anonymityPreview(report: Report): Block[] {
  const a = report.anonymity;
  if (!a) return [];
  const g = report.guarantee;
  const selection = report.method.derived['epsilonSelection'];
  const blocks: Block[] = [{ kind: 'heading', level: 2, text: [data(g.name)] }];
  if (g.delta !== undefined) {
    blocks.push({
      kind: 'paragraph',
      text: [
        'With k = ',
        data(a.k ?? ''),
        ' and sampling rate β = ',
        data(a.sampling ?? ''),
        ', the release is (ε = ',
        data(g.epsilon ?? ''),
        ', δ = ',
        data(g.delta.toExponential(3)),
        ')-differentially private',
        selection !== undefined
          ? `, provided the private search (ε = ${String(selection)}) and the sampling and k-anonymization, both run on the same sample, compose sequentially as SafePub argues (an argument Custos has not re-checked)`
          : ', provided the levels were fixed without looking at this data',
        '. ',
        data(a.choice ?? ''),
        '.',
      ],
    });
  }
  blocks.push({
    kind: 'paragraph',
    text: [
      'A preview on this data: ',
      data(formatNumber(report.risk.classes ?? 0)),
      ' classes would be released, the smallest with ',
      data(formatNumber(report.risk.minClassSize ?? 0)),
      ' records',
      report.output?.suppressed !== undefined ? `; ${formatNumber(report.output.suppressed)} records suppressed` : '',
      '. Generalization loss ',
      data(formatNumber(report.utility.generalizationLoss, 3)),
      ' (the mean share of detail lost in each released cell of a generalized column: 0 as collected, 1 fully generalized; deleted records are not counted).',
      ...(selection !== undefined
        ? [
            ' This preview drew its own sample and levels (',
            data(a.columns.filter((c) => c.depth > 1).map((c) => `${c.name} ${c.level}`).join(', ')),
            "); the run draws afresh, so its levels and figures may differ. Each preview looks at the confidential records outside the release's budget: a setting changed after seeing previews is chosen with the data, which the run's (ε, δ) does not cover, so settle the parameters before looking where you can.",
          ]
        : []),
    ],
  });
  if (a.curve) {
    blocks.push({
      kind: 'bars',
      title: 'Strength of the guarantee: −log₁₀ δ at each ε (longer is stronger)',
      bars: a.curve.map((c) => ({ label: `ε = ${c.epsilon.toFixed(3)}`, value: -Math.log10(Math.max(c.delta, 1e-300)), tone: 'safe' as const, text: `δ = ${c.delta.toExponential(2)}` })),
    });
  }
  if (a.parts) blocks.push({ kind: 'paragraph', text: ['Parts: ', data(a.parts.map((p) => `#${p.part}: ${formatNumber(p.released)} of ${formatNumber(p.size)} released`).join('; ')), '.'] });
  return [{ kind: 'card', blocks }];
}
