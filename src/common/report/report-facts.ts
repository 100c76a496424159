import type { ReidentificationRisk } from '../risk/reidentification.js';
import { readableTime } from './format.js';
import { formatNumber } from '../format/numbers.js';
import { parameterLabel, parameterValue } from './parameter-labels.js';
import type { Report } from './report-model.js';

/** Methods whose report measures count queries that each fix a sensitive value (… ∧ SA = x). */
const SENSITIVE_POOL_METHODS: ReadonlySet<string> = new Set(['uniform-perturbation', 'reconstruction-privacy', 'beta-privacy']);

/** A labelled value as text, the unit of the PDF tables and the workbook's Report sheet. */
export type Fact = readonly [string, string];

export interface FactChart {
  readonly title: string;
  readonly bars: readonly { readonly label: string; readonly value: number; readonly tone: 'danger' | 'safe' | 'neutral'; readonly text: string }[];
}

export interface ReportFacts {
  readonly keyFigures: readonly Fact[];
  readonly charts: readonly FactChart[];
  readonly reidentification: readonly Fact[];
  readonly parameters: readonly Fact[];
  readonly input: readonly Fact[];
  readonly provenance: readonly Fact[];
}

/** Numbers as every rendering prints them. */
export const fmt = formatNumber;

function reidentificationFacts(label: string, r: ReidentificationRisk): Fact[] {
  return [
    [`${label}: equivalence classes`, `${fmt(r.classes)} over ${fmt(r.records)} records`],
    [`${label}: sample uniques`, `${fmt(r.sampleUniques)} (${(100 * r.sampleUniqueShare).toFixed(2)}% of records)`],
    [`${label}: prosecutor risk`, `highest ${fmt(r.prosecutorHighest)}, average ${fmt(r.prosecutorAverage)}; records at highest risk ${(100 * r.recordsAtHighestRisk).toFixed(2)}%`],
    [`${label}: journalist / marketer risk`, `journalist highest at most ${fmt(r.journalistHighest)}; marketer ${fmt(r.marketerAverage)}`],
    ...(r.journalistEstimateHighest !== undefined
      ? [[`${label}: journalist risk estimated from the sampling fraction (not a bound)`, `highest ${fmt(r.journalistEstimateHighest)}, average ${fmt(r.journalistEstimateAverage ?? 0)}, if every class stood for its expected share of the population`] as Fact]
      : []),
  ];
}

/** The first rejected line numbers, and how many more. */
export function rejectedLines(lines: readonly number[]): string {
  const shown = lines.slice(0, 50).join(', ');
  return lines.length > 50 ? `${shown} and ${lines.length - 50} more` : shown;
}

/** Everything a reader needs, flattened to labelled text, from the report model alone. */
export function reportFacts(report: Report): ReportFacts {
  const keyFigures: Fact[] = report.input.rows !== undefined ? [['Records in the input (internal)', fmt(report.input.rows)]] : [];
  const charts: FactChart[] = [];
  const risk = report.risk;
  if (risk.microGroups !== undefined) {
    keyFigures.push(['Micro groups', fmt(risk.microGroups)]);
    // The external variant leaves out what the test says of the true data: only what it holds is shown.
    if (risk.violatingBefore !== undefined) keyFigures.push(['Leaking micro groups, plain perturbation', fmt(risk.violatingBefore)]);
    if (risk.violatingAfter !== undefined) keyFigures.push(['Leaking micro groups, this release', fmt(risk.violatingAfter)]);
    const bars: FactChart['bars'] = [
      ...(risk.violatingBefore !== undefined ? [{ label: 'plain perturbation', value: risk.violatingBefore, tone: 'danger' as const, text: fmt(risk.violatingBefore) }] : []),
      ...(report.method.type === 'reconstruction-privacy' && risk.violatingAfter !== undefined ? [{ label: 'this release', value: risk.violatingAfter, tone: 'safe' as const, text: fmt(risk.violatingAfter) }] : []),
    ];
    if (bars.length > 0) charts.push({ title: 'Micro groups that fail the (ε,δ) test', bars });
  }
  if (report.beta) {
    const b = report.beta;
    keyFigures.push(['Sensitive column', b.sensitive]);
    keyFigures.push(['Buckets', Object.entries(b.chosen.sizes).map(([s, n]) => `${fmt(n)} of size ${s}`).join(', ')]);
    keyFigures.push(['Blur of the buckets: loss / mean squared error', `${fmt(b.chosen.loss)} / ${fmt(b.chosen.mse, 3)}${b.anatomy ? ` (Anatomy ℓ = ${b.anatomy.l}: ${b.anatomy.feasible ? fmt(b.anatomy.mse, 3) : 'infeasible'})` : ''}`]);
    for (const [value, bound] of Object.entries(report.guarantee.maxInference ?? {})) {
      keyFigures.push([`Inference bound “${value}”`, `${bound.count !== undefined ? `${bound.count}/${bound.size} ` : ''}≤ β = ${bound.betaExact}: ${bound.holds ? 'holds' : 'VIOLATED'}`]);
    }
  }
  const a = report.anonymity;
  if (a) {
    if (a.k !== undefined) keyFigures.push(['k / sampling rate β', `${a.k} / ${fmt(a.sampling, 6)}`]);
    if (report.guarantee.epsilon !== undefined && report.guarantee.delta !== undefined) keyFigures.push(['(ε, δ)', `(${fmt(report.guarantee.epsilon, 4)}, ${report.guarantee.delta.toExponential(3)})`]);
    if (a.model && report.method.levels !== undefined) {
      // Global recoding: the chosen transformation in its lattice (the counts and the measure are internal figures).
      keyFigures.push(['Model', a.model]);
      const internal = report.method.internal;
      const satisfying = internal?.['satisfyingTransformations'];
      const atLeast = internal?.['satisfyingTransformationsAtLeast'];
      const nodes = report.method.derived['latticeNodes'];
      if (satisfying !== undefined || atLeast !== undefined) keyFigures.push(['Transformations meeting the models (internal)', `${satisfying !== undefined ? fmt(satisfying) : `at least ${fmt(atLeast)}`} of ${typeof nodes === 'number' ? fmt(nodes) : String(nodes)}`]);
      if (internal?.['measureValue'] !== undefined) keyFigures.push([`Measure “${String(report.method.parameters['measure'])}” of the optimum (internal)`, fmt(internal['measureValue'], 6)]);
    } else if (a.model) keyFigures.push(['Model / parts', `${a.model} / ${a.parts?.length ?? 1}`]);
    keyFigures.push(['Released classes / smallest class', `${fmt(risk.classes)} / ${fmt(risk.minClassSize)}`]);
    if (report.output?.suppressed !== undefined) keyFigures.push(['Suppressed records (internal)', fmt(report.output.suppressed)]);
    keyFigures.push(['Generalization loss', fmt(report.utility.generalizationLoss, 3)]);
    for (const c of a.columns.filter((x) => x.level > 0)) keyFigures.push([`Level of “${c.name}”`, `${c.level} of ${c.depth - 1} (${c.hierarchy})`]);
  }
  if (report.dp) {
    const dp = report.dp;
    keyFigures.push(['Answers / distinct', `${fmt(dp.queries)} / ${fmt(dp.distinctQueries)}`]);
    keyFigures.push(['Sensitivity Δ / noise scale b', `${fmt(dp.sensitivity)} / ${fmt(dp.scale, 6)}`]);
    keyFigures.push(['ε per answer', fmt(dp.epsilonPerAnswer, 6)]);
    if (dp.epsilonEffective !== undefined) keyFigures.push(['ε_eff, worst one-person change (tail slope, not a bound)', fmt(dp.epsilonEffective, 6)]);
    keyFigures.push(['Noise', `${dp.noise}; ${dp.correlation}`]);
    for (const f of dp.filtering ?? []) keyFigures.push([`Filtering attack “${f.series}”`, `noise removed: IID ${fmt(f.removalIid, 3)}, release ${fmt(f.removalRelease, 3)} (gain ${fmt(f.gainIid, 3)} / ${fmt(f.gainRelease, 3)})`]);
  }
  const errors = report.utility.relativeError;
  const errorBars: FactChart['bars'][number][] = [];
  if (errors.release !== undefined) errorBars.push({ label: 'this release', value: errors.release, tone: 'safe', text: fmt(errors.release) });
  if (errors.uniformPerturbation !== undefined && report.method.type !== 'uniform-perturbation') {
    errorBars.push({ label: 'plain perturbation', value: errors.uniformPerturbation, tone: 'neutral', text: fmt(errors.uniformPerturbation) });
  }
  if (errors.anatomy !== undefined) errorBars.push({ label: 'Anatomy baseline', value: errors.anatomy, tone: 'neutral', text: fmt(errors.anatomy) });
  if (errorBars.length > 0) {
    // Named by the pool it averages: the randomized methods' and β-privacy's queries each fix a sensitive value; safe k-anonymity's ask the quasi-identifiers.
    const name = SENSITIVE_POOL_METHODS.has(report.method.type) ? 'Mean relative error of sensitive-value count queries' : 'Mean relative error of quasi-identifier count queries';
    keyFigures.push([name, errorBars.map((b) => `${b.label} ${b.text}`).join('; ')]);
    charts.push({ title: `${name} (lower is better)`, bars: errorBars });
  }
  // A DP-counts release is a table of answers, not of records.
  if (report.output) keyFigures.push([report.dp ? 'Released answers' : 'Released records', fmt(report.output.rows)]);
  const reid = risk.reidentification;
  const reidentification: Fact[] = reid
    ? [
        ['Quasi-identifiers', reid.quasiIdentifiers.join(', ') || '(none)'],
        ['Population', reid.population],
        ...(reid.original ? reidentificationFacts('Input', reid.original) : []),
        ...reidentificationFacts('Release', reid.release),
      ]
    : [];
  const parameters: Fact[] = [
    ['Method', `${report.method.title} (${report.method.type})`],
    ...Object.entries(report.method.parameters).map(([k, v]): Fact => [parameterLabel(k), parameterValue(v)]),
    ...Object.entries(report.method.derived).map(([k, v]): Fact => [parameterLabel(k), typeof v === 'number' ? fmt(v, 6) : parameterValue(v)]),
    ...Object.entries(report.method.internal ?? {}).map(([k, v]): Fact => [`${parameterLabel(k)} (internal)`, fmt(v, 6)]),
  ];
  const i = report.input;
  const format = `${i.format}${i.encoding ? `, ${i.encoding}` : ''}${i.delimiter ? `, delimiter ${JSON.stringify(i.delimiter)}` : ''}`;
  const input: Fact[] = [
    ...(i.path !== undefined ? [['File', i.path] as const] : []),
    ...(i.sha256 !== undefined ? [['SHA-256', i.sha256] as const] : []),
    i.rows !== undefined
      ? ['Records', `${fmt(i.rows)} (${fmt(i.bytes)} bytes, ${format}); rejected rows ${fmt(i.rejectedRows)}`]
      : ['Format', `${format}; the input's size and counts are in the internal report only`],
    ...(i.rejectedRowLines?.length ? [['Rejected lines (skipped, not released)', rejectedLines(i.rejectedRowLines)] as const] : []),
    ...(i.excludedRows ? [['Records excluded (missing sensitive value)', `${fmt(i.excludedRows)} (not released)`] as const] : []),
    ...i.columns.map((c): Fact => [
      `Column “${c.name}”`,
      `${c.role}${c.defaulted ? ' (default)' : ''}${c.type !== undefined ? `, ${c.type}` : ''}${c.distinct !== undefined ? `, ${fmt(c.distinct)} distinct` : ''}${c.missing !== undefined ? `, ${fmt(c.missing)} missing` : ''}`,
    ]),
  ];
  const provenance: Fact[] = [
    ['Software', `Custos ${report.software.version}, Node ${report.software.node}, ${report.software.platform}`],
    ['Created', readableTime(report.createdAt)],
    ['Report schema / variant', `${report.schema} / ${report.variant}`],
    ['Randomness', report.testRandomness ? 'seeded TEST generator: NOT a protected release' : 'operating-system CSPRNG, exact Bernoulli draws'],
  ];
  return { keyFigures, charts, reidentification, parameters, input, provenance };
}
