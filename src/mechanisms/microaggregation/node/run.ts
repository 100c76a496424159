import type { JobWith } from '../../../common/job/job-parts.js';
import { classesOf } from '../../../common/recoding/classes.js';
import { shuffleInPlace } from '../../../common/random/draws.js';
import { reidentificationRisk } from '../../../common/risk/reidentification.js';
import { MISSING_CODE, type Column } from '../../../common/table/table.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import type { ReleaseColumn, ReleaseTable } from '../../../io/output/release-table.js';
import { JobError } from '../../../common/job/job-error.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { reidentificationSection } from '../../../jobs/method-kit/reidentification.js';
import type { MicroaggregationSpec } from '../definition.js';
import { LOSS_TEXT, roundingText, statement } from '../statement.js';
import { decimalText, exactColumn, exactGroupValues, informationLoss, MAX_DECIMAL_PLACES, parseDecimal, type ExactColumn } from '../exact.js';
import { mdav, mdavWork, standardize, type MdavPartition } from '../mdav.js';
import { algorithmOf, partitionedMdav, partitionedWork, type Algorithm } from '../partitioned.js';
import { formatCount } from '../../../common/format/numbers.js';

/**
 * The most MDAV work a run takes, in mdavWork's units (n²·(p + 2)/(2k)): 10,000,000,000. Measured on
 * the 2-core development machine under load (load average 17, 2026-11-27): 12 ns a unit (40,000
 * random records: one column at k = 2 in 14.6 s, three at k = 5 in 9.3 s), so a run at the limit
 * takes about 2 minutes there and under one on a quiet machine. The limit admits Adult (30,162
 * records) at any k, 100,000 records of one column at k = 2, 200,000 of one column from k = 6, and
 * 1,000,000 from k = 150; `npm run bench` times a run at the limit.
 */
export const MAX_MDAV_WORK = 10_000_000_000;

/** A column's values: as doubles for MDAV's distances, and exactly (the decimals as written) for the released values. */
export interface AggregatedValues {
  readonly values: Float64Array;
  readonly exact: ExactColumn;
}

/**
 * The numbers of a column, or a JobError naming the column and the first record that is not a
 * number, is beyond a double's range (1e309), or has more decimal places than the exact sums take.
 */
export function aggregatedValues(column: Column, rowCount: number): AggregatedValues {
  // A dictionary entry is parsed once; rows only look their code up.
  const parsed = column.dictionary.map((v) => parseDecimal(v));
  const problem = parsed.map((p, code): string | undefined => {
    if (!p) return 'not a number';
    if (!Number.isFinite(Number(column.dictionary[code]!.trim()))) return 'beyond the range of a number (about ±1.8e308)';
    if (p.digits !== 0n && -p.exponent > MAX_DECIMAL_PLACES) return `more than ${MAX_DECIMAL_PLACES} decimal places, more than the exact group means take`;
    return undefined;
  });
  const asNumbers = column.dictionary.map((v, code) => (problem[code] === undefined ? Number(v.trim()) : Number.NaN));
  const out = new Float64Array(rowCount);
  for (let r = 0; r < rowCount; r++) {
    const code = column.codes[r]!;
    if (code === MISSING_CODE || problem[code] !== undefined) {
      const what = code === MISSING_CODE ? 'a missing value' : `"${column.dictionary[code]}", ${problem[code]}`;
      throw new JobError(
        `column "${column.name}" holds ${what} at record ${r + 1} (line ${r + 2} of a file with a header row); microaggregation needs a number in every record of the columns it aggregates: fill or drop those records first`,
        'method.columns',
      );
    }
    out[r] = asNumbers[code]!;
  }
  return { values: out, exact: exactColumn(parsed, column.codes.subarray(0, rowCount)) };
}

/** The numbers of a column as doubles (see aggregatedValues). */
export function numericValues(column: Column, rowCount: number): Float64Array {
  return aggregatedValues(column, rowCount).values;
}

/** The groups the job's algorithm forms on the standardized values (the run's and verify's one path). */
export function formGroups(algorithm: Algorithm, data: Float64Array, n: number, p: number, k: number, onProgress?: (fraction: number) => void): MdavPartition {
  return algorithm.kind === 'mdav' ? mdav(data, n, p, k, onProgress) : partitionedMdav(data, n, p, k, algorithm.blockSize, onProgress);
}

/** MDAV microaggregation of the chosen numeric columns; every other column is released as it is. */
export function runMicroaggregation(job: JobWith<MicroaggregationSpec>, imported: ImportedTable, spec: MicroaggregationSpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const { table } = imported;
  const n = table.rowCount;
  const plan = resolveRoles(job, table, { requireSensitive: false });
  const byName = new Map(plan.columns.map((c) => [c.column.name, c]));
  const chosen = spec.columns.map((name, i) => {
    const entry = byName.get(name);
    if (!entry) throw new JobError(`the input has no column "${name}"; its columns are ${table.columns.map((c) => JSON.stringify(c.name)).join(', ')}`, `method.columns.${i}`);
    if (entry.role === 'identifier') throw new JobError(`column "${name}" is an identifier: identifiers are dropped, not aggregated`, `method.columns.${i}`);
    return entry.column;
  });
  if (n < spec.k) throw new JobError(`${n} record(s) cannot form a group of k = ${spec.k}`, 'method.k');
  const algorithm = algorithmOf(spec);
  if (algorithm.kind === 'partitioned-mdav') {
    const work = partitionedWork(n, chosen.length, spec.k, algorithm.blockSize);
    if (work > MAX_MDAV_WORK)
      throw new JobError(
        `partitioned MDAV on ${formatCount(n)} records of ${chosen.length} column(s) with k = ${spec.k} and blocks of ${formatCount(algorithm.blockSize)} is ${formatCount(Number(work.toPrecision(3)))} units of work (about n·blockSize·(columns + 2)/2k), more than the limit of ${formatCount(MAX_MDAV_WORK)}: use smaller blocks or a larger k`,
        'method.blockSize',
      );
  }
  const work = mdavWork(n, chosen.length, spec.k);
  if (algorithm.kind === 'mdav' && work > MAX_MDAV_WORK) {
    // The least k within the limit for these records and columns.
    const least = Math.ceil(mdavWork(n, chosen.length, 1) / MAX_MDAV_WORK);
    throw new JobError(
      `MDAV on ${formatCount(n)} records of ${chosen.length} column(s) with k = ${spec.k} is ${formatCount(Number(work.toPrecision(3)))} units of work (n²·(columns + 2)/2k), more than the limit of ${formatCount(MAX_MDAV_WORK)} (about 2 minutes on the 2-core development machine; its time grows with the square of the records): use k ≥ ${formatCount(least)}, algorithm "partitioned-mdav" (MDAV within blocks), aggregate within strata, or sample`,
      'method.k',
    );
  }
  const columnValues = chosen.map((c) => aggregatedValues(c, n));
  const values = columnValues.map((c) => c.values);

  // MDAV is the protection and nearly all of the time: the release stage's bar follows its rounds.
  ctx.progress('release', 0);
  const started = performance.now();
  const partition = formGroups(algorithm, standardize(values, n), n, values.length, spec.k, (f) => ctx.progress('release', 0.9 * f));
  const mdavMs = performance.now() - started;
  ctx.progress('release', 0.9);
  // Each aggregated column: the groups' rounded values as its dictionary, a code per record.
  const groupValues = columnValues.map((c) => exactGroupValues(c.exact, partition, spec.aggregation, spec.decimals));
  const aggregatedColumns = chosen.map((column, j) => {
    const dictionary = [''];
    const index = new Map<string, number>();
    const codeOfGroup = new Uint32Array(partition.count);
    for (let g = 0; g < partition.count; g++) {
      const text = decimalText(groupValues[j]![g]!, spec.decimals);
      let code = index.get(text);
      if (code === undefined) {
        code = dictionary.length;
        dictionary.push(text);
        index.set(text, code);
      }
      codeOfGroup[g] = code;
    }
    const codes = new Uint32Array(n);
    for (let r = 0; r < n; r++) codes[r] = codeOfGroup[partition.groupOf[r]!]!;
    return { name: column.name, codes, dictionary };
  });
  const aggregatedByName = new Map(aggregatedColumns.map((c) => [c.name, c]));
  const loss = informationLoss(columnValues.map((c) => c.exact), groupValues, partition, spec.decimals);

  // Released rows in random order, so a record's position does not lead back to its input row.
  const order = Uint32Array.from({ length: n }, (_, r) => r);
  if (ctx.mode === 'run') shuffleInPlace(ctx.random, order);
  const releasedPlan = plan.columns.filter((c) => c.role !== 'identifier');
  const columns: ReleaseColumn[] = releasedPlan.map(({ column }) => {
    const aggregated = aggregatedByName.get(column.name);
    return aggregated
      ? { name: column.name, dictionary: aggregated.dictionary, codes: aggregated.codes, via: order, numeric: true }
      : { name: column.name, dictionary: column.dictionary, codes: column.codes, via: order, numeric: column.type === 'integer' || column.type === 'decimal' };
  });
  const view: ReleaseTable = { rowCount: n, columns };

  // Classes of the release: the aggregated columns alone (the guarantee), and every quasi-identifier as released (the risk).
  const all = Uint32Array.from({ length: n }, (_, r) => r);
  const aggregatedClasses = classSizes(classesOf(aggregatedColumns, all));
  const quasiReleased = plan.columns.filter((c) => c.role === 'quasi').map((c) => aggregatedByName.get(c.column.name) ?? c.column);
  const quasiClasses = quasiReleased.length > 0 ? classSizes(classesOf(quasiReleased, all)) : Uint32Array.of(n);
  const smallestAggregated = smallest(aggregatedClasses);
  const smallestQuasi = smallest(quasiClasses);
  const words = statement(
    spec,
    { quasi: plan.columns.filter((c) => c.role === 'quasi').map((c) => c.column.name) },
    { loss, groups: partition.count, aggregatedClasses: aggregatedClasses.length, smallestAggregatedClass: smallestAggregated, smallestQuasiClass: smallestQuasi },
  );
  return {
    plan,
    releases: ctx.mode === 'run' ? [{ stem: 'release', sheetName: 'Release', table: view }] : [],
    method: {
      type: 'microaggregation',
      title: 'Microaggregation (MDAV)',
      parameters: { columns: spec.columns.join(', '), k: spec.k, aggregation: spec.aggregation, decimals: spec.decimals, ...(algorithm.kind === 'partitioned-mdav' ? { algorithm: 'partitioned-mdav', blockSize: algorithm.blockSize } : {}) },
      // What the release itself shows: its groups are its classes on the aggregated columns.
      derived: {
        distance: 'squared Euclidean distance on z-scores (x − mean) / sd, population sd, as sdcMicro\'s Mdav',
        rounding: roundingText(spec.decimals),
        groupSizes: `${spec.k} … ${2 * spec.k - 1}`,
        aggregatedClasses: aggregatedClasses.length,
        smallestAggregatedClass: smallestAggregated,
        informationLoss: LOSS_TEXT,
      },
      // The loss compares the release with the confidential values; the group count can differ from the released classes when rounded values coincide.
      // SSE/SST is left out when it is not computable (every column constant, yet rounding moved values); the summary says so.
      internal: { ...(loss.ratio === undefined ? {} : { sseOverSst: loss.ratio }), sse: loss.sse, sst: loss.sst, il1s: loss.il1s, groups: partition.count, mdavMilliseconds: Math.round(mdavMs) },
    },
    guarantee: {
      ...words.published.guarantee,
      holds: smallestAggregated >= spec.k && Array.from(partition.sizes).every((s) => s >= spec.k && s <= 2 * spec.k - 1),
    },
    risk: {
      adversary: 'knows a target\'s quasi-identifiers and looks for the target\'s class in the release (prosecutor); the aggregated values hide the target among at least k records on those columns',
      classes: quasiClasses.length,
      minClassSize: smallestQuasi,
      reidentification: { ...reidentificationSection(plan, n, null), release: reidentificationRisk(quasiClasses) },
    },
    utility: { relativeError: {}, queryPool: 'not measured for this method yet; the information loss is SSE/SST (internal report)' },
    summary: words.internal.summary,
    externalSummary: words.published.summary,
    warnings: words.internal.warnings,
    externalWarnings: words.published.warnings,
  };
}

function classSizes({ classOf, count }: { classOf: Uint32Array; count: number }): Uint32Array {
  const sizes = new Uint32Array(count);
  for (let i = 0; i < classOf.length; i++) sizes[classOf[i]!]!++;
  return sizes;
}

function smallest(sizes: Uint32Array): number {
  let min = Infinity;
  for (let i = 0; i < sizes.length; i++) if (sizes[i]! < min) min = sizes[i]!;
  return Number.isFinite(min) ? min : 0;
}
