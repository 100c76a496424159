import type { JobWith } from '../../../common/job/job-parts.js';
import { amplifiedEpsilon } from '../../../common/dp/sampling-amplification.js';
import { effectiveEpsilon, smallestEigenvalueBound } from '../accounting.js';
import { answerQueries, marginalQueries, type CountQuerySpec } from '../count-queries.js';
import { discreteLaplace, GRID_BITS, snap } from '../../../common/random/exact-samplers.js';
import { autocovariance, filteringAttack } from '../filtering-attack.js';
import { glmNoise, iidLaplaceNoise, StreamingNoise, type CorrelationModel } from '../glm.js';
import { differentialInference } from '../inference-attack.js';
import { independentParts } from '../../../common/recoding/partitioned.js';
import { rationalFromNumber, rational } from '../../../common/exact/rational.js';
import { declaredPositions } from '../../../common/table/sensitive-domain.js';
import type { Column } from '../../../common/table/table.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import type { ReleaseColumn, ReleaseTable } from '../../../io/output/release-table.js';
import type { DpReport } from '../../../common/report/report-model.js';
import { domainCheck } from '../../../jobs/method-kit/analyze.js';
import { JobError } from '../../../jobs/method-kit/job-error.js';
import type { DpCountsSpec } from '../definition.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import type { MethodContext } from '../../../jobs/method-kit/method-context.js';
import type { MethodOutcome } from '../../../jobs/method-kit/outcome.js';

interface Answered {
  readonly query: CountQuerySpec;
  readonly label: string;
  /** Series position and name, when the job asks for series. */
  readonly series?: string;
  readonly part: number;
}

const ATTACK_EPSILON = 0.2;

function columnIndex(columns: readonly Column[], name: string, key: string): number {
  const i = columns.findIndex((c) => c.name === name);
  if (i < 0) throw new JobError(`the input has no column "${name}"`, key);
  return i;
}

function sortedCodes(column: Column, codes: readonly number[]): number[] {
  const numeric = column.type === 'integer' || column.type === 'decimal';
  return [...codes].sort((a, b) => (numeric ? Number(column.dictionary[a]) - Number(column.dictionary[b]) : column.dictionary[a]! < column.dictionary[b]! ? -1 : 1));
}

interface PublicColumns {
  /** The input's columns, each dictionary extended by the values a query or a declared domain names but the data lack. */
  readonly columns: readonly Column[];
  /** The cells of a column: its declared domain in order, or else the values in the data (which then are disclosed). */
  cells(column: number): number[];
  readonly declared: ReadonlySet<number>;
}

/**
 * Values named by a query or a declared domain but absent from the data get
 * codes no row holds: they count 0 and print as themselves, so the shape of
 * the released table never tells whether a value occurs.
 */
function publicColumns(columns: readonly Column[], spec: DpCountsSpec): PublicColumns {
  const named = new Map<number, string[]>();
  const declared = new Map<number, readonly string[]>();
  for (const [name, values] of Object.entries(spec.domains ?? {})) {
    const key = `method.domains.${name}`;
    const c = columnIndex(columns, name, key);
    domainCheck(key, () => declaredPositions(columns[c]!, values));
    declared.set(c, values);
    named.set(c, [...values]);
  }
  if (spec.queries !== 'marginals') {
    for (const q of spec.queries) {
      for (const [name, value] of Object.entries(q.where)) {
        const c = columns.findIndex((col) => col.name === name);
        if (c >= 0) named.set(c, [...(named.get(c) ?? []), value]);
      }
    }
  }
  const extended = columns.map((column, c) => {
    const present = new Set(column.dictionary);
    const absent = [...new Set((named.get(c) ?? []).filter((v) => !present.has(v)))];
    return absent.length === 0 ? column : { ...column, dictionary: [...column.dictionary, ...absent] };
  });
  return {
    columns: extended,
    declared: new Set(declared.keys()),
    cells: (c) => {
      const values = declared.get(c);
      if (values) return values.map((v) => extended[c]!.dictionary.indexOf(v));
      return sortedCodes(columns[c]!, Array.from({ length: columns[c]!.dictionary.length - 1 }, (_, i) => i + 1));
    },
  };
}

/**
 * The most queries one possible record can match. Per queried column a record
 * either holds a value some query names or one no query names (all of which
 * match alike), so it is enough to try those: the search depends on the queries
 * alone, never on the data. Undefined when there are too many combinations.
 */
/**
 * Every kind of record the queries can tell apart: per queried column, each
 * value some query names, or one value none names (all of which match alike).
 * It depends on the queries alone, never on the data. Undefined above `limit`.
 */
export function possibleRecords(queries: readonly CountQuerySpec[], limit: number): { queried: number[]; each(visit: (tuple: readonly number[]) => void): void } | undefined {
  const queried = [...new Set(queries.flatMap((q) => [...q.where.keys()]))].sort((a, b) => a - b);
  const UNNAMED = -1;
  const candidates = queried.map((c) => [...new Set(queries.flatMap((q) => (q.where.has(c) ? [q.where.get(c)!] : [])))].concat(UNNAMED));
  const product = candidates.reduce((a, values) => a * values.length, 1);
  if (product > limit) return undefined;
  return {
    queried,
    each(visit) {
      const tuple = new Array<number>(queried.length);
      for (let i = 0; i < product; i++) {
        let rest = i;
        for (let j = 0; j < queried.length; j++) {
          tuple[j] = candidates[j]![rest % candidates[j]!.length]!;
          rest = Math.floor(rest / candidates[j]!.length);
        }
        visit(tuple);
      }
    },
  };
}

export function maxMatches(queries: readonly CountQuerySpec[]): number | undefined {
  const records = possibleRecords(queries, 2_000_000);
  if (!records) return undefined;
  const { queried } = records;
  const shapes = new Map<string, { columns: number[]; counts: Map<string, number> }>();
  for (const q of queries) {
    const columns = [...q.where.keys()].sort((a, b) => a - b);
    const id = columns.join(',');
    let shape = shapes.get(id);
    if (!shape) shapes.set(id, (shape = { columns, counts: new Map() }));
    const key = columns.map((c) => q.where.get(c)).join(',');
    shape.counts.set(key, (shape.counts.get(key) ?? 0) + 1);
  }
  let best = 0;
  records.each((tuple) => {
    let matched = 0;
    for (const shape of shapes.values()) matched += shape.counts.get(shape.columns.map((c) => tuple[queried.indexOf(c)]).join(',')) ?? 0;
    if (matched > best) best = matched;
  });
  return Math.max(1, best);
}

/** How the correlated noise is drawn: exact on the grid, then assembled in floating point. */
const GLM_NOISE_TEXT =
  `symmetric multivariate (generalized) Laplace: W ~ Exp(1) and Z ~ N(0,1) drawn exactly from their discretizations on the 2^−${GRID_BITS} grid, N = √(2W)·b·C·Z assembled in double precision, each answer snapped to a multiple of 2^−${GRID_BITS}`;

/**
 * What that costs the per-answer ε, said plainly: the grid draws are exact, but
 * the assembly is floating point and the coordinates are Laplace only up to the
 * grid and rounding; Custos has not bounded the difference.
 */
const GLM_APPROXIMATION =
  `The noise is an approximation: W and Z are exact only on the 2^−${GRID_BITS} grid, their combination is computed in floating point and the answer snapped to 2^−${GRID_BITS} (against floating-point attacks), so each coordinate is Laplace only up to that grid and rounding. ` +
  'The per-answer ε is that of the ideal mechanism; the loss of the approximation has not been bounded. Use noise "laplace" (exact discrete Laplace, ε-DP proven) where a proven ε is required.';

/** ε_eff in words: the maximum over every possible record, or an upper bound when they were too many to try. */
function epsilonEffectiveText(value: number, exact: boolean): string {
  return exact
    ? `over every possible record (every value the queries or declared domains name, and one value they do not), the worst one-person change has ε_eff = ${value.toPrecision(4)}`
    : `the worst one-person change has ε_eff ≤ ${value.toPrecision(4)} (an upper bound √(Δ/λ_min(R))/b: too many kinds of record to try one by one)`;
}

/** 95% interval half-width of the noise: discrete Laplace exactly, continuous Laplace b·ln 20. */
function halfWidth(b: number, discrete: boolean): number {
  if (!discrete) return b * Math.log(20);
  const a = Math.exp(-1 / b);
  let t = 0;
  while ((2 * a ** (t + 1)) / (1 + a) > 0.05) t++;
  return t;
}

/** Noisy counts and marginals with exact discrete Laplace or correlated (generalized Laplace) noise (“Correlated tuple data release via differential privacy” (2021)). */
export function runDpCounts(job: JobWith<DpCountsSpec>, imported: ImportedTable, spec: DpCountsSpec, ctx: MethodContext): MethodOutcome {
  ctx.progress('analyze', 0);
  const { table } = imported;
  const plan = resolveRoles(job, table, { requireSensitive: false });
  const known = publicColumns(table.columns, spec);
  const cols = known.columns;
  const forbidden = new Set(plan.columns.filter((c) => c.role === 'identifier').map((c) => c.column.name));
  const check = (name: string, key: string): number => {
    const i = columnIndex(cols, name, key);
    if (forbidden.has(name)) throw new JobError(`"${name}" is an identifier and is never queried`, key);
    return i;
  };
  let base: CountQuerySpec[];
  let marginals = 0;
  if (spec.queries === 'marginals') {
    const indexes = spec.columns!.map((name, i) => check(name, `method.columns[${i}]`));
    const m = marginalQueries(indexes, known.cells);
    base = m.queries;
    marginals = m.marginals;
  } else {
    base = spec.queries.map((q, i) => {
      const where = new Map<number, number>();
      for (const [name, value] of Object.entries(q.where)) {
        const c = check(name, `method.queries[${i}].where.${name}`);
        where.set(c, cols[c]!.dictionary.indexOf(value));
      }
      return { where };
    });
  }
  const seriesColumn = spec.series ? check(spec.series.by, 'method.series.by') : undefined;
  const groupColumn = spec.correlation && 'groupBy' in spec.correlation ? check(spec.correlation.groupBy, 'method.correlation.groupBy') : undefined;
  // Parts: every record to a part independently, so one record added or removed changes one part
  // only (parallel composition under add/remove neighbours, the neighbours of Δ).
  const n = table.rowCount;
  const partRows: (Uint32Array | null)[] = spec.parts > 1 ? independentParts(ctx.random, n, spec.parts) : [null];
  // Expand queries over the series column, then cache repeats: an identical query gets the same noisy answer.
  const answered: Answered[] = [];
  const label = (q: CountQuerySpec): string => [...q.where].map(([c, code]) => `${cols[c]!.name}=${cols[c]!.dictionary[code]}`).join(' ∧ ') || 'all records';
  const seriesCells = seriesColumn === undefined ? [] : known.cells(seriesColumn);
  partRows.forEach((_, p) => {
    for (const q of base) {
      const name = label(q);
      if (seriesColumn === undefined) answered.push({ query: q, label: name, part: p });
      else for (const code of seriesCells) {
        const where = new Map(q.where);
        where.set(seriesColumn, code);
        answered.push({ query: { where }, label: name, series: name, part: p });
      }
    }
  });
  const keyOf = (a: Answered): string => `${a.part}|${[...a.query.where].sort((x, y) => x[0] - y[0]).map(([c, v]) => `${c}:${v}`).join(',')}`;
  const distinct = new Map<string, number>();
  const slot = answered.map((a) => {
    const k = keyOf(a);
    let i = distinct.get(k);
    if (i === undefined) distinct.set(k, (i = distinct.size));
    return i;
  });
  const unique: Answered[] = [];
  answered.forEach((a, i) => (unique[slot[i]!] ??= a));
  // Sensitivity (add/remove one record): one cell per marginal, or every distinct explicit query.
  const partZero = unique.filter((a) => a.part === 0);
  const perPart = partZero.length;
  const exact = spec.queries === 'marginals' ? undefined : maxMatches(partZero.map((a) => a.query));
  const sensitivity = spec.queries === 'marginals' ? marginals : (exact ?? perPart);
  const sensitivityRule =
    spec.queries === 'marginals'
      ? `${marginals} marginal table(s); one record falls in exactly one cell of each, so Δ = ${marginals} (ε split equally over the marginals)`
      : exact !== undefined
        ? `${perPart} distinct count queries; over every possible record (each queried column holding a value some query names or any other value; the data play no part) at most ${exact} of them can match one record, so Δ = ${exact}`
        : `${perPart} distinct count queries; one record may match all of them, so Δ = ${perPart} (sequential composition)`;
  const epsilonExact = rationalFromNumber(spec.epsilon);
  const b = sensitivity / spec.epsilon;
  // True answers per part.
  const truth = new Float64Array(unique.length);
  partRows.forEach((rows, p) => {
    const indexes = unique.map((a, i) => (a.part === p ? i : -1)).filter((i) => i >= 0);
    // A value absent from the data has a code no row carries: its count is 0.
    const values = answerQueries(indexes.map((i) => unique[i]!.query), cols, rows, n);
    indexes.forEach((i, j) => (truth[i] = values[j]!));
  });
  // Noise.
  ctx.progress('release', 0);
  const glm = spec.noise === 'generalized-laplace';
  const rho = spec.correlation?.rho ?? 0;
  const noise = new Float64Array(unique.length);
  let model: CorrelationModel = { kind: 'independent' };
  if (!glm) {
    const scale = rational(BigInt(sensitivity) * epsilonExact.den, epsilonExact.num);
    for (let i = 0; i < unique.length; i++) noise[i] = Number(discreteLaplace(ctx.random, scale));
  } else if (spec.series) {
    // One stream per series (and part), AR(1) along it.
    const streams = new Map<string, { readonly noise: StreamingNoise; readonly id: number }>();
    const streamOf = unique.map((a, i) => {
      const key = `${a.part}|${a.series}`;
      let stream = streams.get(key);
      if (!stream) streams.set(key, (stream = { noise: new StreamingNoise(ctx.random, b, spec.correlation && 'model' in spec.correlation ? spec.correlation.rho : 0, spec.series!.iteration), id: streams.size }));
      noise[i] = stream.noise.next();
      return stream.id;
    });
    // Streams are independent of one another: AR(1) within each, not across their boundaries.
    model = spec.correlation && 'model' in spec.correlation ? { kind: 'ar1', rho, chainOf: streamOf } : { kind: 'independent' };
  } else if (groupColumn !== undefined) {
    model = { kind: 'block', rho, blockOf: unique.map((a, i) => (a.query.where.has(groupColumn) ? a.query.where.get(groupColumn)! : -1 - i)) };
    noise.set(glmNoise(ctx.random, model, unique.length, b));
  } else {
    model = { kind: 'ar1', rho };
    noise.set(glmNoise(ctx.random, model, unique.length, b));
  }
  const released = Float64Array.from(truth, (t, i) => (glm ? snap(t + noise[i]!) : t + noise[i]!));
  // Accounting: the worst one-person change over every possible record, not only the records
  // present (a published ε_eff that moved when one record was added would itself leak).
  ctx.progress('utility', 0);
  let epsilonEffective: number | undefined;
  let epsilonEffectiveExact = true;
  if (glm && model.kind !== 'independent') {
    const partZero = unique.filter((a) => a.part === 0).map((a) => a.query);
    const records = possibleRecords(partZero, 20_000);
    if (records) {
      epsilonEffective = 0;
      const position = new Map(records.queried.map((c, j) => [c, j]));
      // A record falls in any one part. Block and per-stream AR(1) models treat every part alike,
      // but one AR(1) chain over all answers does not: the first part starts the chain, the last
      // ends it, and every part between sees the same interior weights, so these three cover all.
      const parts = [...new Set([0, Math.min(1, spec.parts - 1), spec.parts - 1])];
      records.each((tuple) => {
        for (const p of parts) {
          const delta = unique.map((a) => (a.part === p && [...a.query.where].every(([c, v]) => tuple[position.get(c)!] === v) ? 1 : 0));
          epsilonEffective = Math.max(epsilonEffective!, effectiveEpsilon(model, delta, b));
        }
      });
    } else {
      // Too many kinds of record to try: bound √(ΔᵀR⁻¹Δ) by √(|Δ|²/λ_min) with |Δ|² at most the sensitivity.
      epsilonEffectiveExact = false;
      epsilonEffective = Math.sqrt(sensitivity / smallestEigenvalueBound(model)) / b;
    }
  }
  // Filtering attack on each series: IID Laplace versus this release.
  const filtering: NonNullable<DpReport['filtering']>[number][] = [];
  if (spec.series) {
    const bySeries = new Map<string, number[]>();
    unique.forEach((a, i) => {
      if (a.part !== 0) return;
      const list = bySeries.get(a.series!) ?? [];
      list.push(i);
      bySeries.set(a.series!, list);
    });
    for (const [name, indexes] of [...bySeries].slice(0, 12)) {
      if (indexes.length < 7) continue;
      const x = indexes.map((i) => truth[i]!);
      const y = indexes.map((i) => released[i]!);
      const rx = autocovariance(x);
      const k = Math.min(10, Math.floor((indexes.length - 1) / 2) - 1);
      const iid = iidLaplaceNoise(ctx.random, x.length, b);
      const gainIid = filteringAttack(x, x.map((v, t) => v + iid[t]!), rx, (lag) => (lag === 0 ? 2 * b * b : 0), k);
      const rn = (lag: number): number => (glm && model.kind === 'ar1' ? 2 * b * b * rho ** lag : lag === 0 ? 2 * b * b : 0);
      const own = filteringAttack(x, y, rx, rn, k);
      filtering.push({ series: name, length: x.length, halfWidth: k, gainIid: gainIid.gain, gainRelease: own.gain, removalIid: gainIid.noiseRemoval, removalRelease: own.noiseRemoval, mseRaw: own.mseRaw, mseFiltered: own.mseFiltered });
    }
  }
  // Differential inference on pairs (group, group ∧ sensitive value) for the riskiest groups.
  const inference: NonNullable<DpReport['inference']>[number][] = [];
  const sensitive = plan.sensitive[0];
  if (sensitive && ctx.mode === 'run') {
    const sIndex = table.columns.indexOf(sensitive);
    const groupCols = plan.columns.filter((c) => c.role === 'quasi').map((c) => table.columns.indexOf(c.column)).slice(0, 2);
    if (groupCols.length > 0) {
      const counts = new Map<string, { o1: number; byValue: Map<number, number>; label: string }>();
      for (let r = 0; r < n; r++) {
        const key = groupCols.map((c) => cols[c]!.codes[r]).join(',');
        let e = counts.get(key);
        if (!e) counts.set(key, (e = { o1: 0, byValue: new Map(), label: groupCols.map((c) => `${cols[c]!.name}=${cols[c]!.dictionary[cols[c]!.codes[r]!]}`).join(' ∧ ') }));
        e.o1++;
        const v = cols[sIndex]!.codes[r]!;
        e.byValue.set(v, (e.byValue.get(v) ?? 0) + 1);
      }
      const risky = [...counts.values()]
        .filter((e) => e.o1 >= 20)
        .map((e) => {
          const [value, o2] = [...e.byValue].reduce((best, cur) => (cur[1] > best[1] ? cur : best));
          return { ...e, value, o2 };
        })
        .sort((x, y) => y.o2 / y.o1 - x.o2 / x.o1)
        .slice(0, 5);
      for (const g of risky) {
        const risk = differentialInference(ctx.random, g.o1, g.o2, b, ATTACK_EPSILON, 20_000);
        inference.push({ group: g.label, value: cols[sIndex]!.dictionary[g.value]!, ...risk, attackEpsilon: ATTACK_EPSILON });
      }
    }
  }
  // The answers table: one column per queried attribute, then answer, scale, lower95, upper95.
  const queried = cols.map((c, i) => i).filter((i) => unique.some((a) => a.query.where.has(i)));
  const half = halfWidth(b, !glm);
  const rows = answered.length;
  const out: ReleaseColumn[] = [];
  if (spec.parts > 1) out.push({ name: 'part', dictionary: Array.from({ length: spec.parts }, (_, p) => String(p + 1)), codes: Uint32Array.from(answered, (a) => a.part), via: null, numeric: true });
  for (const c of queried) {
    const column = cols[c]!;
    out.push({ name: column.name, dictionary: column.dictionary, codes: Uint32Array.from(answered, (a) => a.query.where.get(c) ?? 0), via: null, numeric: column.type !== 'text' });
  }
  const numberColumn = (name: string, values: (i: number) => number): ReleaseColumn => {
    const texts = answered.map((_, i) => {
      const v = values(slot[i]!);
      return glm ? v.toFixed(6).replace(/\.?0+$/, '') : String(v);
    });
    const dictionary = [...new Set(texts)];
    const index = new Map(dictionary.map((t, k) => [t, k]));
    return { name, dictionary, codes: Uint32Array.from(texts, (t) => index.get(t)!), via: null, numeric: true };
  };
  out.push(numberColumn('answer', (i) => released[i]!));
  out.push(numberColumn('scale', () => b));
  out.push(numberColumn('lower95', (i) => released[i]! - half));
  out.push(numberColumn('upper95', (i) => released[i]! + half));
  const answersTable: ReleaseTable = { rowCount: rows, columns: out };
  // Each part is a Poisson sample at rate 1/P: the amplified ε′ depends on P alone, never on n.
  const prime = amplifiedEpsilon(spec.epsilon, 1 / spec.parts);
  const epsilonPrime = spec.parts > 1 ? [{ epsilon: spec.epsilon, epsilonPrime: prime, reported: Math.min(spec.epsilon, prime) }] : undefined;
  const correlationText = !glm
    ? 'independent discrete Laplace (two-sided geometric) noise, exact integer sampler'
    : spec.series
      ? `AR(1) along each series (ρ = ${rho}), streaming iteration, ${spec.series.iteration === 'keep' ? 'one W per stream' : 'W refreshed each step'}`
      : groupColumn !== undefined
        ? `block correlation ρ = ${rho} among answers with the same “${cols[groupColumn]!.name}”`
        : `AR(1) across the answers in order, ρ = ${rho}`;
  const dp: DpReport = {
    queries: answered.length,
    distinctQueries: unique.length,
    sensitivity,
    sensitivityRule,
    scale: b,
    noise: glm ? GLM_NOISE_TEXT : 'discrete Laplace',
    ...(glm ? { grid: `answers snapped to multiples of 2^−${GRID_BITS}` } : {}),
    correlation: correlationText,
    epsilonPerAnswer: 1 / b,
    ...(epsilonEffective !== undefined ? { epsilonEffective } : {}),
    filtering,
    inference,
    ...(epsilonPrime ? { epsilonPrime } : {}),
    parts: spec.parts,
  };
  const warnings: string[] = [];
  const disclosed = [...(spec.queries === 'marginals' ? spec.columns! : []), ...(spec.series ? [spec.series.by] : [])].filter((name) => !known.declared.has(cols.findIndex((c) => c.name === name)));
  if (disclosed.length > 0) {
    warnings.push(
      `The cells of ${[...new Set(disclosed)].map((n) => `“${n}”`).join(', ')} are the values present in the input: which values occur is published as is, outside ε-DP (a value held by one person shows that person is in the data). List their public values (method.domains; “Public values” in the wizard) to fix the cells in advance.`,
    );
  }
  if (glm) {
    warnings.push(
      `The noise of different answers is correlated: each single answer is ${(1 / b).toPrecision(3)}-DP on its own, but the vector of answers is not ε-DP on the strength of its marginals` +
        (epsilonEffective !== undefined ? `; ${epsilonEffectiveText(epsilonEffective, epsilonEffectiveExact)} (√(ΔᵀR⁻¹Δ)/b)` : '') +
        '. "Correlated tuple data release via differential privacy" (2021) claims a correlated-tuple DP guarantee for such noise; Custos cites it as the paper\'s claim and has not checked it.',
    );
  }
  const worstRemoval = filtering.length ? filtering.reduce((w, f) => (f.removalRelease > w.removalRelease ? f : w)) : undefined;
  const pct = (x: number): string => `${Math.max(0, 100 * x).toFixed(0)}%`;
  if (perPart === 0) throw new JobError('no query to answer', 'method.queries');
  return {
    plan,
    releases: ctx.mode === 'run' ? [{ stem: 'answers', sheetName: 'Answers', table: answersTable }] : [],
    method: {
      type: 'dp-counts',
      title: 'Differentially private counts',
      parameters: {
        epsilon: spec.epsilon,
        queries: spec.queries === 'marginals' ? `1- and 2-way marginals over ${spec.columns!.join(', ')}` : `${spec.queries.length} count queries`,
        noise: spec.noise,
        ...(spec.correlation ? { correlation: 'model' in spec.correlation ? `ar1 ρ = ${spec.correlation.rho}` : `groupBy ${spec.correlation.groupBy} ρ = ${spec.correlation.rho}` } : {}),
        ...(spec.series ? { series: `${spec.series.by} (${spec.series.iteration})` } : {}),
        parts: spec.parts,
      },
      derived: { sensitivity, scale: b, epsilonPerAnswer: 1 / b, answers: answered.length, distinctAnswers: unique.length, ...(epsilonEffective !== undefined ? { epsilonEffective } : {}) },
    },
    guarantee: glm
      ? {
          name: 'per-answer ε-differential privacy (correlated noise)',
          statement:
            `Every single answer carries noise that approximates Laplace noise of scale b = ${b.toPrecision(4)}; the ideal mechanism is ${(1 / b).toPrecision(4)}-differentially private per answer. ` +
            `${GLM_APPROXIMATION} ` +
            'The answers were released together with correlated noise, so the joint release is NOT claimed to be ε-DP: ' +
            (epsilonEffective !== undefined ? `${epsilonEffectiveText(epsilonEffective, epsilonEffectiveExact)}.` : 'see ε_eff.'),
          formula: 'N = √(2W)·b·C·Z, W ~ Exp(1), Z ~ N(0, I), CCᵀ = R; each N_i ~ Lap(b); ε_eff = √(ΔᵀR⁻¹Δ)/b',
          source: '"Correlated tuple data release via differential privacy", Information Sciences 560 (2021), generalized Laplace mechanism; Kozubowski, Podgórski, Rychlik (2013); ε_eff = √(ΔᵀR⁻¹Δ)/b',
          holds: true,
          epsilon: 1 / b,
        }
      : {
          name: 'ε-differential privacy',
          statement:
            `Adding or removing any one person's record changes the probability of any set of answers by at most a factor e^${spec.epsilon}: ` +
            `each answer carries exact discrete Laplace noise of scale b = Δ/ε = ${b.toPrecision(4)}, with Δ = ${sensitivity}.` +
            (spec.parts > 1 ? ` Each record was assigned to one of ${spec.parts} parts independently and uniformly at random, so adding or removing a record changes the answers of one part only: the parts together are ${spec.epsilon}-DP by parallel composition (add/remove neighbours).` : '') +
            (disclosed.length > 0 ? ` This covers the counts, not the list of cells: the values of ${[...new Set(disclosed)].join(', ')} are taken from the input (declare their domains to fix them in advance).` : ''),
          formula: 'Pr[Z = z] = (1 − a)/(1 + a)·a^{|z|}, a = e^{−ε/Δ}; L1 sensitivity Δ',
          source: 'Dwork et al. (Laplace mechanism); Canonne, Kamath, Steinke 2020 (exact discrete sampler); "Correlated tuple data release via differential privacy" (2021) §1',
          holds: true,
          epsilon: spec.epsilon,
        },
    risk: {
      adversary: 'sees every noisy answer and may know everything about all records but one; may filter correlated noise (filtering attack) or divide two large counts (differential-inference attack)',
    },
    utility: {
      relativeError: {},
      queryPool: `every answer has a 95% interval of ±${half.toPrecision(4)} around it (noise scale b = ${b.toPrecision(4)})`,
    },
    dp,
    summary: [
      `${answered.length.toLocaleString('en-US')} counts were released${unique.length < answered.length ? ` (${unique.length.toLocaleString('en-US')} distinct; repeats return the same noisy answer)` : ''}, each with noise of scale ${b.toPrecision(4)} (95% of answers within ±${half.toPrecision(4)} of the truth).`,
      glm
        ? `The noise is correlated (${correlationText})${worstRemoval !== undefined ? `; the filtering attack removes at most ${pct(worstRemoval.removalRelease)} of the noise of a series of this release (${pct(worstRemoval.removalIid)} with independent Laplace noise on the same series)` : ''}. Each answer alone is ${(1 / b).toPrecision(3)}-DP; the joint release is described by ε_eff, not by ε.`
        : `The release is ${spec.epsilon}-differentially private: whether any one person is in the data changes the answers' distribution by at most a factor e^${spec.epsilon}.`,
      ...(inference.length ? [`Dividing two noisy counts still reveals large groups: for the riskiest group the adversary's estimate is within ±${ATTACK_EPSILON * 100}% of the truth with probability ${(1 - inference[0]!.pAbove - inference[0]!.pBelow).toFixed(3)}.`] : []),
    ],
    externalSummary: [
      `${answered.length.toLocaleString('en-US')} counts were released, each with noise of scale ${b.toPrecision(4)}.`,
      glm ? `Each answer alone is ${(1 / b).toPrecision(3)}-DP; the noise is correlated (${correlationText}).` : `The release is ${spec.epsilon}-differentially private.`,
    ],
    warnings,
    // Both state the method's properties, not facts of the data: the reader of the answers needs them.
    externalWarnings: warnings,
  };
}
