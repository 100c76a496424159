import type { AnalysisUtilityReport } from './report-model.js';

type Measured = Extract<AnalysisUtilityReport, { readonly tables: unknown }>;
/** The classifier's part and one contingency table, as a parsed report holds them (read-only). */
export type ClassifierReport = NonNullable<Measured['classifier']>;
export type ContingencyReport = Measured['tables'][number];

/**
 * The analysis-based utility (utility.analysis of the internal report, src/common/utility/analysis.ts)
 * in words, one [label, value] pair a figure, for the internal report's renderings and the command line.
 * Internal only: every figure compares the release with the confidential input.
 */
export type AnalysisFact = readonly [label: string, value: string];

export const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
export const distance = (x: number): string => x.toFixed(4);

export function classifierFacts(c: ClassifierReport): AnalysisFact[] {
  if ('skipped' in c) return [[`Classifier of ${c.target}`, `not measured: ${c.skipped}`]];
  const lost = c.inputAccuracy - c.releaseAccuracy;
  return [
    [`Classifier of ${c.target}`, `${c.learner}, on ${c.features.length ? c.features.join(', ') : 'no column'}; ${c.classes.length} categories, ${c.records.toLocaleString('en-US')} records scored`],
    ['Accuracy, trained on the input', pct(c.inputAccuracy)],
    ['Accuracy, trained on the release', `${pct(c.releaseAccuracy)} (${lost >= 0 ? `${pct(lost)} lower` : `${pct(-lost)} higher`} than on the input)`],
    [`Accuracy, input, ${c.protocol.includes('5-fold') ? '5-fold ' : ''}cross-validated`, pct(c.inputCrossValidated)],
    ['Accuracy of always the most frequent category', pct(c.majority)],
    ['How the accuracies were measured', c.protocol],
    ...(c.leftOut.length ? [['Columns left out of the classifier', c.leftOut.map((l) => `${l.column} (${l.reason})`).join('; ')] as const] : []),
  ];
}

export function contingencyFact(t: ContingencyReport): AnalysisFact {
  const name = `${t.columns[0]} × ${t.columns[1]}`;
  if ('skipped' in t) return [name, `not measured: ${t.skipped}`];
  return [name, `total variation ${distance(t.totalVariation)}, Hellinger ${distance(t.hellinger)}; margins ${distance(t.marginals[0]!)} and ${distance(t.marginals[1]!)}`];
}

/** Every fact of the analysis, or why it was not measured. */
export function analysisFacts(a: AnalysisUtilityReport): AnalysisFact[] {
  if ('notMeasured' in a) return [['Analysis-based utility', `not measured: ${a.notMeasured}`]];
  return [...(a.classifier ? classifierFacts(a.classifier) : []), ...a.tables.map(contingencyFact)];
}

/** The mean total variation over the tables measured, or undefined when none was (compare's utility axis). */
export function meanTotalVariation(a: AnalysisUtilityReport): number | undefined {
  if ('notMeasured' in a) return undefined;
  const measured = a.tables.flatMap((t) => ('skipped' in t ? [] : [t.totalVariation]));
  return measured.length ? measured.reduce((s, v) => s + v, 0) / measured.length : undefined;
}
