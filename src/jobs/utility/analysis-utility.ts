import type { Column, Table } from '../../common/table/table.js';
import { own } from '../../common/job/names.js';
import { meanTotalVariation } from '../../common/report/analysis-utility-facts.js';
import type { CandidateResult } from '../../common/compare/comparison.js';
import { analysisUtility } from '../../common/utility/analysis.js';
import { MAX_PAIRS, type AnalysisReport } from '../../common/utility/analysis-model.js';
import { definitionOf, type Job } from '../../mechanisms/definitions.js';
import { comparedPartsOf } from '../../mechanisms/node-registry.js';
import { JobError } from '../../common/job/job-error.js';
import type { MethodOutcome } from '../method-kit/outcome.js';

/**
 * The analysis-based utility of a run (src/common/utility/analysis.ts) from the job's `utility` key:
 * its columns checked against the input and the roles (a job error naming the key), the default
 * pairs, and the release read in the input's values by the mechanism's own compare reading. Internal
 * only: the report builder's external variant leaves `utility.analysis` out.
 */

/** Each column the `utility` key names, with its key ("utility.target", "utility.pairs[2][0]"). */
function namedColumns(job: Job): [string, string][] {
  const settings = job.utility;
  if (!settings) return [];
  return [
    ...(settings.target !== undefined ? [[settings.target, 'utility.target'] as [string, string]] : []),
    ...(settings.pairs ?? []).flatMap((pair, i) => pair.map((name, k): [string, string] => [name, `utility.pairs[${i}][${k}]`])),
  ];
}

/**
 * Refuses a `utility` key the release cannot answer: a method that releases no records (dp-counts'
 * answers), a column the input lacks, or one the release leaves out (an identifier). `attributes`
 * are the roles of the step whose release is read (a chain's first step drops its identifiers).
 */
export function checkUtilitySettings(job: Job, table: Table, attributes: Job['attributes'] = job.attributes): void {
  if (!job.utility) return;
  const compare = definitionOf(job.method.type).compare;
  if (!compare.releasesRecords) throw new JobError(`${job.method.type} ${compare.why}: there are no released records to train a classifier on or to cross-tabulate`, 'utility');
  for (const [name, key] of namedColumns(job)) {
    if (!table.columns.some((c) => c.name === name)) throw new JobError(`the input has no column "${name}"; its columns are ${table.columns.map((c) => JSON.stringify(c.name)).join(', ')}`, key);
    if (own(attributes, name) === 'identifier') throw new JobError(`"${name}" is an identifier column: the release leaves it out, so nothing can be measured on it`, key);
  }
}

/** The pairs the job names, or each quasi-identifier with the first sensitive column (else the target; else consecutive quasi-identifiers), at most MAX_PAIRS. */
export function pairsOf(job: Job, outcome: MethodOutcome): [string, string][] {
  if (job.utility?.pairs) return job.utility.pairs.map(([a, b]) => [a, b]);
  const ofRole = (role: string) => outcome.plan.columns.filter((c) => c.role === role).map((c) => c.column.name);
  const quasi = ofRole('quasi');
  const anchor = ofRole('sensitive')[0] ?? job.utility?.target;
  const pairs: [string, string][] = anchor !== undefined ? quasi.filter((q) => q !== anchor).map((q) => [q, anchor]) : quasi.slice(1).map((q, i) => [quasi[i]!, q]);
  return pairs.slice(0, MAX_PAIRS);
}

/** The figures of a run's release, or why there are none. `chain`: the release is a chain's, which is not read this way yet. */
export function releaseAnalysis(job: Job, truth: Table, outcome: MethodOutcome, chain: boolean): AnalysisReport {
  if (chain) return { notMeasured: 'not measured for a chain of methods: its release is read back from the first step\'s, whose values are not the input\'s' };
  const compare = definitionOf(job.method.type).compare;
  if (!compare.releasesRecords) return { notMeasured: `${job.method.type} ${compare.why}` };
  const identifiers = new Set(outcome.plan.columns.filter((c) => c.role === 'identifier').map((c) => c.column.name));
  const columns: Column[] = truth.columns.filter((c) => !identifiers.has(c.name));
  const parts = comparedPartsOf(job.method.type);
  const released = parts.node.releasedRecords(outcome, truth, columns);
  return analysisUtility({
    truth,
    columns,
    released,
    reading: parts.definition.estimator,
    ...(job.utility?.target !== undefined ? { target: job.utility.target } : {}),
    pairs: pairsOf(job, outcome),
  });
}

/** A candidate's analysis as the comparison's utility axes read it: the accuracies, the mean total variation of its tables. */
export function analysisAxes(analysis: AnalysisReport): Pick<CandidateResult['utility'], 'accuracy' | 'tableDistance'> {
  if ('notMeasured' in analysis) return {};
  const c = analysis.classifier;
  const distance = meanTotalVariation(analysis);
  return {
    ...(c && !('skipped' in c) ? { accuracy: { target: c.target, release: c.releaseAccuracy, input: c.inputAccuracy } } : {}),
    ...(distance !== undefined ? { tableDistance: distance } : {}),
  };
}
