import type { Report } from './report-model.js';
import { own } from '../job/names.js';

/**
 * ARX's quality measures of the chosen recoding (src/common/utility/quality.ts, computed by global
 * recoding into the internal report's `method.internal`: quality… keys) in words, for the wizard's
 * results and risk preview. Lower is better for every one; each term has its glossary entry.
 */
export type QualityWord = readonly [label: string, value: string, meaning: string];

const fig = (x: number): string => (Number.isInteger(x) ? x : Number(x.toPrecision(4))).toLocaleString('en-US', { maximumFractionDigits: 10 });

export function qualityWords(report: Report): QualityWord[] {
  const internal = report.method.internal;
  if (!internal) return [];
  const get = (key: string): number | undefined => own(internal, key);
  const out: QualityWord[] = [];
  const add = (key: string, label: string, meaning: (v: number) => string): void => {
    const v = get(key);
    if (v !== undefined) out.push([label, fig(v), meaning(v)]);
  };
  add('qualityHeight', 'Height', (v) => `the levels chosen add up to ${fig(v)}${get('qualityRelativeHeight') !== undefined ? ` (${(100 * get('qualityRelativeHeight')!).toFixed(0)} % of the way to every column at its top level)` : ''}`);
  add('qualityAverageClassSize', 'Average class size', () => 'released records per class: how many records share each released combination of quasi-identifier values');
  add('qualityDiscernibility', 'Discernibility', () => 'the sum over released classes of their size squared, each suppressed record counted as large as the whole file: how hard records are to tell apart');
  add('qualityAmbiguity', 'Ambiguity', () => 'on average, how many combinations of the input\'s values a released record could stand for');
  add('qualityKlDivergenceBits', 'KL divergence', () => 'in bits: how far the release, read with each class spread evenly over the values it covers, is from the input\'s distribution of quasi-identifier values');
  for (const [key, value] of Object.entries(internal)) {
    const precision = /^qualityPrecision (.*)$/.exec(key);
    if (precision) out.push([`Precision, ${precision[1]}`, fig(value), 'the column\'s level as a share of its hierarchy\'s height (a suppressed record counts fully generalized)']);
    const entropy = /^qualityNonUniformEntropyBits (.*)$/.exec(key);
    if (entropy) out.push([`Non-uniform entropy, ${entropy[1]}`, fig(value), 'in bits: the information the coarser values lose, summed over the records']);
  }
  return out;
}
