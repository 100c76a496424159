import type { ReidentificationRisk } from '../risk/reidentification.js';
import { readableTime } from './format.js';
import { formatNumber } from '../format/numbers.js';
import { parameterLabel, parameterValue } from './parameter-labels.js';
import type { Report } from './report-model.js';
import { factsOf, type Fact } from './key-figures.js';
import type { Block, ViewBar } from './view-model.js';

export type { Fact } from './key-figures.js';

export interface FactChart {
  readonly title: string;
  readonly bars: readonly ViewBar[];
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

/**
 * Everything a reader needs, flattened to labelled text, from the report model and its key figures
 * (`keyFigureBlocks` of key-figures.ts: the mechanisms' views set among the shared figures).
 */
export function reportFacts(report: Report, keyFigureBlocks: readonly Block[]): ReportFacts {
  const keyFigures = factsOf(keyFigureBlocks);
  const charts = keyFigureBlocks.flatMap((b): FactChart[] => (b.kind === 'bars' ? [{ title: b.title, bars: b.bars }] : []));
  return { keyFigures, charts, ...sharedFacts(report) };
}

/** The labelled text every method's report has: re-identification risk, parameters, input, provenance. */
export function sharedFacts(report: Report): Omit<ReportFacts, 'keyFigures' | 'charts'> {
  const risk = report.risk;
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
  return { reidentification, parameters, input, provenance };
}
