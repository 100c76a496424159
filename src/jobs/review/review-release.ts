import { directIdentifiers } from '../../common/review/direct-identifiers.js';
import {
  attackerSentence, reviewChecks, reviewVerdict, DEFAULT_REVIEW,
  type DirectIdentifierFound, type IdentityFigures, type ReviewFigures, type ReviewSettings, type SensitiveFigures,
} from '../../common/review/release-review.js';
import { reidentificationRisk, wildcardReidentificationRisk } from '../../common/risk/reidentification.js';
import { classSizeFrequencies, dankar, type ClassSizeFrequencies } from '../../common/risk/population-uniqueness.js';
import { kMapEstimated, type KMapRisk } from '../../common/risk/k-map.js';
import { projectedRiskFigures, releasedRiskFigures } from '../../common/risk/release-risk.js';
import { keyColumn, tupleIds } from '../../common/table/tuple-ids.js';
import { inferType, type Table } from '../../common/table/table.js';
import type { Report } from '../../common/report/report-model.js';
import { releasedCodes, type ReleaseTable } from '../../io/output/release-table.js';
import { codesAsMade } from '../../io/output/released-codes.js';
import { tupleIdsThrough } from '../../common/table/known-tuple-ids.js';
import { metadataOf, type Job } from '../../mechanisms/definitions.js';
import { chainAttackerKnowledge } from '../../mechanisms/chain-statement.js';
import { nodeMechanismOf } from '../../mechanisms/node-registry.js';
import { samplingFraction } from './population.js';

/**
 * The release-level disclosure review of src/common/review/release-review.ts, computed from the
 * released tables as written (the run's compacted tables, or verify's tables read back from the
 * CSV): every figure is a function of the released values, the job's roles and its `review` key,
 * so verify computes the same figures from the release folder alone.
 */

export type ReviewReport = NonNullable<Report['review']>;
type Role = 'quasi' | 'sensitive' | 'insensitive';

/** The distinct values a detector sees of a column (first seen first). */
const SAMPLE_VALUES = 400;

export interface ReviewedTable {
  /** The file stem ("release", "qit", "release-diagnosis"). */
  readonly stem: string;
  readonly table: ReleaseTable;
}

/**
 * The review of a release, `roles` the role of each input column the release may carry (identifiers are never released).
 * `identityStep`: a chain's first step (`job` is its last): its released values of the quasi-identifiers are the
 * release's ("*" of local suppression a wildcard), and the attacker sentence is the chain's.
 */
/** A released table whose quasi-identifier classes are already counted (quasiClasses), by the run that reviews it. */
export interface GroupedTable {
  readonly table: ReleaseTable;
  readonly classes: TupleClasses;
}

/** Dense class ids of a table's rows (numbered by first row) and how many classes there are. */
export interface TupleClasses {
  readonly ids: Uint32Array;
  readonly count: number;
}

/**
 * The classes of a released table's rows on its quasi-identifiers (the columns `roles` names quasi,
 * in the table's order; none: one class), by their released codes, numbered by first row: what the
 * review counts, and what the run's risk profile of the same table starts from instead of grouping
 * the rows again.
 */
export function quasiClasses(table: ReleaseTable, roles: ReadonlyMap<string, string>): TupleClasses {
  if (table.rowCount === 0) return { ids: new Uint32Array(0), count: 0 };
  const qi = table.columns.flatMap((c, j) => (roles.get(c.name) === 'quasi' ? [j] : []));
  // Quasi-identifiers released as collected through one row index (a shuffled release of input rows):
  // the method's micro groups of the same columns, read through the index, are the same classes.
  const via = qi.length > 0 ? table.columns[qi[0]!]!.via : null;
  if (via && qi.every((j) => table.columns[j]!.via === via)) {
    const through = tupleIdsThrough(qi.map((j) => codesAsMade(table.columns[j]!)), via, table.rowCount);
    if (through) return through;
  }
  const codes = releasedCodes(table);
  return tupleIds(qi.map((j) => keyColumn({ codes: codes[j]!, dictionary: table.columns[j]!.dictionary })), null, table.rowCount);
}

export function reviewRelease(job: Job, tables: readonly ReviewedTable[], roles: ReadonlyMap<string, Role>, identityStep?: Job, grouped?: GroupedTable): ReviewReport {
  const settings = job.review ?? DEFAULT_REVIEW;
  const mechanism = nodeMechanismOf(job.method.type);
  const quasiJob = identityStep ?? job;
  const quasiMechanism = nodeMechanismOf(quasiJob.method.type);
  const records = mechanism.releasesInputColumns;
  const asCollected = metadataOf(job.method.type)?.sensitiveRelease === 'as-collected';
  const directs: DirectIdentifierFound[] = [];
  const identity: IdentityFigures[] = [];
  const sensitive: SensitiveFigures[] = [];
  if (records) {
    for (const { stem, table } of tables) {
      const file = `${stem}.csv`;
      const columns = table.columns.map((c, j) => ({ column: c, j, role: roles.get(c.name) })).filter((c): c is typeof c & { role: Role } => c.role !== undefined);
      const codes = materialize(table, columns.map((c) => c.j));
      const counts = columns.map((c, i) => countCodes(codes[i]!, c.column.dictionary.length));
      columns.forEach((c, i) => {
        const sample = columnSample(c.column.name, c.column.dictionary, codes[i]!, counts[i]!);
        for (const found of directIdentifiers(sample)) directs.push({ file, column: c.column.name, kind: found.kind, reason: found.reason });
      });
      const qi = columns.flatMap((c, i) => (c.role === 'quasi' ? [i] : []));
      const groups = grouped?.table === table ? grouped.classes : quasiClasses(table, roles);
      // A mechanism whose released values may stand for any value (local suppression's "*") counts each record's matches itself.
      const frequencies = qi.length > 0 && table.rowCount > 0 ? quasiMechanism.releasedFrequencies?.(quasiJob as never, qi.map((i) => ({ codes: codes[i]!, dictionary: columns[i]!.column.dictionary })), table.rowCount) ?? null : null;
      if (qi.length > 0 && table.rowCount > 0) identity.push(identityOf(file, qi.map((i) => columns[i]!.column.name), groups, settings, frequencies));
      if (asCollected && table.rowCount > 0) {
        columns.forEach((c, i) => {
          if (c.role === 'sensitive') sensitive.push(sensitiveOf(file, c.column.name, c.column.dictionary, codes[i]!, counts[i]!, groups, settings.rareCount));
        });
      }
    }
  }
  const knowledge = identityStep ? chainAttackerKnowledge(metadataOf(identityStep.method.type)?.title ?? identityStep.method.type, metadataOf(job.method.type)?.title ?? job.method.type) : undefined;
  return reviewReport(job, 'release', { records, directIdentifiers: directs, identity, sensitive }, settings, [...roles].filter(([, role]) => role === 'sensitive').map(([name]) => name), knowledge);
}

/**
 * The review an assessment shows before anything is released, from the input: the columns the method
 * releases as collected (not identifiers, not recoded above level 0) for direct identifiers and rare
 * sensitive values, and the method's own figures of the release for identity (`risk.reidentification.release`).
 * A projection: the run reviews the release itself. Internal only (it is computed from the input).
 */
export function projectedReview(job: Job, input: Table, report: Report): ReviewReport {
  const settings = job.review ?? DEFAULT_REVIEW;
  const mechanism = nodeMechanismOf(job.method.type);
  const records = mechanism.releasesInputColumns;
  const asCollected = metadataOf(job.method.type)?.sensitiveRelease === 'as-collected';
  const recoded = new Set([
    ...Object.entries(report.method.levels ?? {}).filter(([, level]) => level > 0).map(([name]) => name),
    ...(report.anonymity?.columns ?? []).filter((c) => c.level > 0).map((c) => c.name),
  ]);
  const roles = new Map(report.input.columns.map((c) => [c.name, c.role]));
  const directs: DirectIdentifierFound[] = [];
  const sensitive: SensitiveFigures[] = [];
  const identity: IdentityFigures[] = [];
  if (records) {
    const file = 'release (projected)';
    const released = input.columns.filter((c) => roles.get(c.name) !== undefined && roles.get(c.name) !== 'identifier');
    for (const column of released) {
      if (recoded.has(column.name)) continue;
      const counts = countCodes(column.codes, column.dictionary.length);
      for (const found of directIdentifiers(columnSample(column.name, column.dictionary, column.codes, counts))) directs.push({ file, column: column.name, kind: found.kind, reason: found.reason });
    }
    const quasi = released.filter((c) => roles.get(c.name) === 'quasi');
    const risk = report.risk.reidentification?.release;
    // Classes of the input's quasi-identifiers stand for the released ones only where none is recoded.
    const groups = input.rowCount > 0 && !quasi.some((c) => recoded.has(c.name)) ? tupleIds(quasi.map(keyColumn), null, input.rowCount) : undefined;
    if (risk && quasi.length > 0 && risk.records > 0) {
      const figures = { file, quasiIdentifiers: quasi.map((c) => c.name), records: risk.records, classes: risk.classes, sampleUniques: risk.sampleUniques, sampleUniqueShare: risk.sampleUniqueShare, prosecutorHighest: risk.prosecutorHighest, prosecutorAverage: risk.prosecutorAverage };
      const fraction = samplingFraction(settings, risk.records, `released records of ${file}`);
      // Of the released classes only the smallest is known here (1 / highest prosecutor risk): the highest individual risk follows from it.
      identity.push(
        fraction === undefined
          ? figures
          : {
              ...figures,
              population: projectedPopulation(risk, fraction, groups && risk.records === input.rowCount ? groups : undefined),
              ...(risk.prosecutorHighest > 0 ? { risk: projectedRiskFigures(Math.round(1 / risk.prosecutorHighest), fraction) } : {}),
            },
      );
    }
    if (asCollected && input.rowCount > 0) {
      for (const column of released) {
        if (roles.get(column.name) !== 'sensitive') continue;
        sensitive.push(sensitiveOf(file, column.name, column.dictionary, column.codes, countCodes(column.codes, column.dictionary.length), groups, settings.rareCount));
      }
    }
  }
  return reviewReport(job, 'projected', { records, directIdentifiers: directs, identity, sensitive }, settings, report.input.columns.filter((c) => c.role === 'sensitive').map((c) => c.name));
}

/**
 * The population figures of a projected release: from the input's classes when they are the released
 * ones (no quasi-identifier recoded, every record released); else the journalist's k-map estimate from
 * the method's figures of the release (π / smallest class, π · classes / records: the same as from its
 * class sizes), and no Dankar estimate, which needs every class size (the run computes it).
 */
function projectedPopulation(risk: NonNullable<Report['risk']['reidentification']>['release'], fraction: number, groups: { ids: Uint32Array; count: number } | undefined): NonNullable<IdentityFigures['population']> {
  if (groups) {
    const sizes = new Uint32Array(groups.count);
    for (let i = 0; i < groups.ids.length; i++) sizes[groups.ids[i]!]!++;
    const list = [...sizes].filter((n) => n > 0);
    return populationFigures(classSizeFrequencies(list), fraction, kMapEstimated(list, fraction));
  }
  const smallest = Math.round(1 / risk.prosecutorHighest);
  return {
    fraction,
    model: 'not projected: Dankar et al.\'s estimate needs the sizes of the recoded classes, which the run computes',
    journalist: { k: smallest / fraction, highest: fraction / smallest, average: fraction * risk.prosecutorAverage },
  };
}

function reviewReport(job: Job, basis: 'release' | 'projected', figures: ReviewFigures, settings: ReviewSettings, sensitiveColumns: readonly string[], knowledge?: string): ReviewReport {
  const checks = reviewChecks(figures, settings);
  const { acknowledge, ...thresholds } = settings;
  return {
    basis,
    attacker: attackerSentence(knowledge ?? metadataOf(job.method.type)?.attackerKnowledge ?? '', sensitiveColumns),
    settings: thresholds,
    records: figures.records,
    directIdentifiers: figures.directIdentifiers,
    identity: figures.identity,
    sensitive: figures.sensitive,
    checks,
    verdict: reviewVerdict(checks),
    ...(acknowledge.length > 0 ? { acknowledgements: acknowledge } : {}),
  } as ReviewReport;
}

/** Each column's code per row (through `via`), one array per column asked for: shared (releasedCodes), read only. */
function materialize(table: ReleaseTable, indices: readonly number[]): Uint32Array[] {
  const codes = releasedCodes(table);
  return indices.map((j) => codes[j]!);
}

export function countCodes(codes: Uint32Array, size: number): Uint32Array {
  const counts = new Uint32Array(size);
  for (let i = 0; i < codes.length; i++) counts[codes[i]!]!++;
  return counts;
}

/** What the detectors see: the column's values held by some record, first seen first, and its type as the values say. */
export function columnSample(name: string, dictionary: readonly string[], codes: Uint32Array, counts: Uint32Array) {
  const values: string[] = [];
  const seen = new Uint8Array(dictionary.length);
  let present = 0;
  let distinct = 0;
  for (let code = 0; code < dictionary.length; code++) {
    if (counts[code]! > 0 && dictionary[code] !== '') {
      present += counts[code]!;
      distinct++;
    }
  }
  // Once every value a record holds is seen the later rows add none (most columns hold few values).
  const wanted = Math.min(SAMPLE_VALUES, distinct);
  for (let i = 0; i < codes.length && values.length < wanted; i++) {
    const code = codes[i]!;
    if (seen[code] || dictionary[code] === '') continue;
    seen[code] = 1;
    values.push(dictionary[code]!);
  }
  // The type from the values themselves (a CSV read back has no other): the first entry stands for missing.
  const type = inferType(['', ...dictionary.filter((v, code) => v !== '' && counts[code]! > 0)]);
  return { name, type, distinct, present, values };
}

/** `frequencies`: each record's matches when released values may be wildcards, else null (the classes of identical tuples). */
function identityOf(file: string, quasiIdentifiers: readonly string[], groups: { ids: Uint32Array; count: number }, settings: ReviewSettings, frequencies: Uint32Array | null): IdentityFigures {
  const sizes = new Uint32Array(groups.count);
  for (let i = 0; i < groups.ids.length; i++) sizes[groups.ids[i]!]!++;
  const risk = frequencies ? wildcardReidentificationRisk(frequencies, groups.count) : reidentificationRisk(sizes);
  const figures = { file, quasiIdentifiers: [...quasiIdentifiers], records: risk.records, classes: risk.classes, sampleUniques: risk.sampleUniques, sampleUniqueShare: risk.sampleUniqueShare, prosecutorHighest: risk.prosecutorHighest, prosecutorAverage: risk.prosecutorAverage };
  const fraction = samplingFraction(settings, risk.records, `released records of ${file}`);
  if (fraction === undefined) return figures;
  // "*" matches every value: each record is counted in a class of the records compatible with it, as the prosecutor risk counts it.
  const classes = frequencies ? compatibleClassSizes(frequencies) : classSizeFrequencies(sizes.filter((n) => n > 0));
  return {
    ...figures,
    population: populationFigures(classes, fraction, frequencies ? wildcardKMap(frequencies, fraction) : kMapEstimated([...sizes].filter((n) => n > 0), fraction), frequencies !== null),
    risk: releasedRiskFigures(recordsBySize(frequencies ?? sizes, frequencies === null), fraction),
  };
}

/**
 * k-map (kMapEstimated) when released values may be wildcards: each record's class is the fk records
 * compatible with it, standing for fk / π people, so its risk is π / fk.
 */
function wildcardKMap(frequencies: Uint32Array, fraction: number): KMapRisk {
  let smallest = Infinity;
  let sum = 0;
  for (const fk of frequencies) {
    smallest = Math.min(smallest, fk);
    sum += fraction / fk;
  }
  let atHighest = 0;
  for (const fk of frequencies) if (fk === smallest) atHighest++;
  const records = frequencies.length;
  return { k: smallest / fraction, journalistHighest: fraction / smallest, journalistAverage: sum / records, recordsAtHighestRisk: atHighest / records, records };
}

/**
 * The population figures from the released class sizes: Dankar et al.'s estimate of population
 * uniques, and the journalist's (k-map) risk with each class standing for its expected f / π people
 * (src/common/risk/k-map.ts: an estimate, not a bound; a sample unique may be unique in the population).
 */
function populationFigures(classes: ClassSizeFrequencies, fraction: number, kMap: KMapRisk, wildcards = false): NonNullable<IdentityFigures['population']> {
  const estimate = dankar(classes, fraction);
  return {
    fraction,
    model: `Dankar et al. (2012): ${estimate.source}${wildcards ? '; classes of the records compatible with each record ("*" matches every value)' : ''}`,
    ...(estimate.populationUniques !== null ? { populationUniques: estimate.populationUniques, populationUniqueShare: estimate.populationUniqueShare! } : {}),
    journalist: { k: kMap.k, highest: kMap.journalistHighest, average: kMap.journalistAverage },
  };
}

/**
 * Class-size frequencies when released values may be wildcards: a record compatible with fk records
 * counts as one of a class of fk, so n_s records with fk = s make n_s / s classes of size s — exactly
 * the classes when "*" stands for no value, and rounded up where compatibility is not transitive (a
 * record with "*" matches records that do not match each other). Sample uniques (fk = 1) are exact.
 */
function compatibleClassSizes(frequencies: Uint32Array): ClassSizeFrequencies {
  const records = new Map<number, number>();
  for (const fk of frequencies) records.set(fk, (records.get(fk) ?? 0) + 1);
  return [...records].sort((a, b) => a[0] - b[0]).map(([size, n]) => [size, Math.ceil(n / size)] as const);
}

/** Records per class size: from class sizes (`classes`: each size counts its records once per class), or from each record's matches. */
function recordsBySize(sizes: ArrayLike<number>, classes: boolean): Map<number, number> {
  const out = new Map<number, number>();
  for (let i = 0; i < sizes.length; i++) {
    const size = sizes[i]!;
    if (size > 0) out.set(size, (out.get(size) ?? 0) + (classes ? size : 1));
  }
  return out;
}

function sensitiveOf(file: string, column: string, dictionary: readonly string[], codes: Uint32Array, counts: Uint32Array, groups: { ids: Uint32Array; count: number } | undefined, rareCount: number): SensitiveFigures {
  let rareValues = 0;
  let rareRecords = 0;
  for (let code = 0; code < dictionary.length; code++) {
    const n = counts[code]!;
    if (n > 0 && n < rareCount && dictionary[code] !== '') {
      rareValues++;
      rareRecords += n;
    }
  }
  if (!groups) return { file, column, rareValues, rareRecords };
  // A class is homogeneous when its records hold one non-missing value of the column.
  const NONE = 0xffffffff;
  const MIXED = 0xfffffffe;
  const value = new Uint32Array(groups.count).fill(NONE);
  const size = new Uint32Array(groups.count);
  for (let i = 0; i < codes.length; i++) {
    const g = groups.ids[i]!;
    size[g]!++;
    const v = value[g]!;
    if (v === NONE) value[g] = codes[i]!;
    else if (v !== MIXED && v !== codes[i]) value[g] = MIXED;
  }
  let homogeneousRecords = 0;
  for (let g = 0; g < groups.count; g++) if (value[g] !== MIXED && value[g] !== NONE && dictionary[value[g]!] !== '') homogeneousRecords += size[g]!;
  return { file, column, rareValues, rareRecords, homogeneousRecords };
}
