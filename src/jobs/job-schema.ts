import { z } from 'zod';
import { DEFAULT_LOSS_WEIGHT } from '../engine/anonymity/lattice-score.js';
import { MAX_RHO } from '../engine/dp/glm.js';
import { parseRational, rationalFromNumber, type Rational } from '../engine/rational.js';
import { normalizeEncoding, type TextEncoding } from '../io/input/encoding.js';

/**
 * The v1 job file (PRODUCT.md). Every object is strict: an unknown key is an
 * error that names it, never silently ignored.
 */
export const ROLES = ['identifier', 'quasi', 'sensitive', 'insensitive'] as const;
export type Role = (typeof ROLES)[number];

const role = z
  .enum(['identifier', 'quasi', 'quasi-identifier', 'sensitive', 'insensitive'])
  .transform((r): Role => (r === 'quasi-identifier' ? 'quasi' : r));

/**
 * An object keyed by names from the data (columns, values). Names are data: a
 * column may be called `__proto__` or `constructor`. zod's record assigns keys
 * on a plain object, where `__proto__` is swallowed by the prototype setter and
 * a lookup of `constructor` finds a function; this builds an object without a
 * prototype from the input's own keys, so every name is an ordinary key. Look
 * names up with `own` (names.ts): a copy made by spreading has a prototype again.
 */
export function nameRecord<T extends z.ZodTypeAny>(value: T, what = 'an object keyed by name') {
  return z.unknown().transform((input, ctx): Readonly<Record<string, z.output<T>>> => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `expected ${what}` });
      return z.NEVER;
    }
    const out = Object.create(null) as Record<string, z.output<T>>;
    for (const [key, raw] of Object.entries(input)) {
      const parsed = value.safeParse(raw);
      if (parsed.success) out[key] = parsed.data as z.output<T>;
      else for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: [key, ...issue.path] } as z.IssueData);
    }
    return out;
  });
}

/** A quote or a line break cannot separate fields: the CSV grammar gives them their own meaning. */
export const isLineOrQuote = (d: string): boolean => d === '"' || d === '\n' || d === '\r';

const probability = (what: string) =>
  z.number({ invalid_type_error: `${what} must be a number` }).gt(0, `${what} must be > 0`).lt(1, `${what} must be < 1`);

const encoding = z
  .string()
  .transform((value, ctx): TextEncoding => {
    const normalized = normalizeEncoding(value);
    if (!normalized) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: `unsupported encoding "${value}" (use utf-8, utf-16le, utf-16be or windows-1252)` });
      return z.NEVER;
    }
    return normalized;
  });

const input = z
  .object({
    path: z.string().min(1, 'input.path must name the confidential file'),
    delimiter: z
      .string()
      .refine((d) => (d.length === 1 && !isLineOrQuote(d)) || d === '\\t' || d === 'tab', 'the delimiter must be one character other than a quote or a line break (or "tab")')
      .transform((d) => (d === '\\t' || d === 'tab' ? '\t' : d))
      .optional(),
    encoding: encoding.optional(),
    sheet: z.union([z.string(), z.number().int().nonnegative(), z.null()]).optional(),
    missing: z.array(z.string()).default(['']),
    onBadRow: z.enum(['error', 'skip']).default('error'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'input.sha256 must be 64 hex digits').optional(),
  })
  .strict();

const domains = nameRecord(z.array(z.string()).min(2, 'a declared domain needs at least 2 values'), 'an object of column name → list of values').optional();

const riskTest = {
  epsilon: z.number().gt(0, 'epsilon must be > 0'),
  delta: probability('delta'),
  bound: z.enum(['simplified', 'full']).default('simplified'),
};

const attack = z
  .object({
    minGroupSize: z.number().int().min(1).default(20),
    groups: z.number().int().min(1).max(100).default(7),
  })
  .strict()
  .default({});

export const uniformPerturbationMethod = z
  .object({
    type: z.literal('uniform-perturbation'),
    retention: probability('retention').optional(),
    rho1: probability('rho1').optional(),
    rho2: probability('rho2').optional(),
    domains,
    // The (ε,δ) test that measures which micro groups leak (paper 004 Example 1 defaults).
    epsilon: riskTest.epsilon.default(0.5),
    delta: riskTest.delta.default(0.3),
    bound: riskTest.bound,
    attack,
  })
  .strict();

export const reconstructionPrivacyMethod = z
  .object({
    type: z.literal('reconstruction-privacy'),
    retention: probability('retention'),
    ...riskTest,
    /** Trim the few rows that sampling coins add so every group passes the exact test. */
    strict: z.boolean().default(true),
    /** Groups with s_g < 1 cannot be protected at these parameters. */
    unprotectable: z.enum(['suppress', 'reject']).default('suppress'),
    domains,
    attack,
  })
  .strict();

/** Reads a number or an exact fraction/decimal string ("8/15", "0.05") as the exact rational it writes. */
export function exactValue(value: number | string): Rational {
  return typeof value === 'number' ? rationalFromNumber(value) : parseRational(value);
}

/**
 * β as a number or an exact string, in (0, 1]. The job keeps what the user
 * wrote (so it round-trips into reports); methods convert with exactValue.
 */
const betaValue = z.union([z.number(), z.string()]).superRefine((value, ctx) => {
  let r: Rational;
  try {
    r = exactValue(value);
  } catch {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `${JSON.stringify(value)} is not a number or a fraction like "8/15"` });
    return;
  }
  if (r.num <= 0n || r.num > r.den) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `β must lie in (0, 1]; got ${JSON.stringify(value)}` });
});

const positiveRational = z.union([z.number(), z.string()]).superRefine((value, ctx) => {
  try {
    if (exactValue(value).num > 0n) return;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: z.ZodIssueCode.custom, message: `the coefficient must be a positive number; got ${JSON.stringify(value)}` });
});

export const betaPrivacyMethod = z
  .object({
    type: z.literal('beta-privacy'),
    sensitive: z.string().min(1).optional(),
    beta: z.union(
      [
        z.object({ default: betaValue, values: nameRecord(betaValue, 'an object of value → β').default({}) }).strict(),
        z.object({ coefficient: positiveRational }).strict(),
      ],
      { errorMap: () => ({ message: 'give { "default": β, "values": { "value": β } } or { "coefficient": c }' }) },
    ),
    algorithm: z.enum(['two-size', 'multi-size', 'anatomy']).default('multi-size'),
    minBucket: z.number().int().min(1).optional(),
    maxBucket: z.number().int().min(1).max(10_000).default(50),
    fakeValues: z.number().int().min(0).max(1000).default(0),
    /**
     * Negative associations an adversary may have learnt: for a quasi-identifier value, sensitive
     * values that are implausible. A fake that some row of the bucket rules out is never used.
     */
    fakeExclusions: nameRecord(nameRecord(z.array(z.string()))).default({}),
  })
  .strict();

/** A hierarchy: an ARX-format CSV (path relative to the job), numeric intervals, or code masking. */
const hierarchySpec = z.union([
  z.string().min(1),
  z.object({ type: z.literal('interval'), widths: z.array(z.number().int().min(2)).min(1) }).strict(),
  z.object({ type: z.literal('masking'), length: z.number().int().min(1).max(64) }).strict(),
]);
export type HierarchySpec = z.infer<typeof hierarchySpec>;

const levels = nameRecord(z.number().int().min(0), 'an object of column name → level');

export const safeKAnonymityMethod = z
  .object({
    type: z.literal('safe-k-anonymity'),
    /** "auto": the smallest k that meets the target for the given sampling rate. */
    k: z.union([z.number().int().min(2, 'k must be at least 2'), z.literal('auto')]),
    /** β, the Bernoulli sampling rate; "auto": the largest that meets the target for the given k. */
    sampling: z.union([z.number().gt(0, 'sampling must be > 0').lt(1, 'sampling must be < 1 (without sampling there is no DP guarantee)'), z.literal('auto')]),
    hierarchies: nameRecord(hierarchySpec, 'an object of column name → hierarchy').default({}),
    levels: z.union([z.literal('search'), levels]).default({}),
    /** The ε at which δ is reported when no target is given. */
    epsilon: z.number().gt(0).optional(),
    /** levels "search": the budget of the exponential-mechanism selection, added to ε. */
    searchEpsilon: z.number().gt(0).max(10).default(0.1),
    /** "lattice": one choice among every node with the whole budget (best utility); "path": SafePub's step-wise walk, for lattices too large to score whole. */
    searchStrategy: z.enum(['lattice', 'path']).default('lattice'),
    /** λ in the search score: a kept record scores 1 − λ·loss, a suppressed one 0 (1: detail first, as SafePub; 0: records first). */
    searchLossWeight: z.number().min(0).max(1).default(DEFAULT_LOSS_WEIGHT),
    target: z.object({ epsilon: z.number().gt(0), delta: z.number().gt(0).lt(1) }).strict().optional(),
  })
  .strict();

export const partitionedRecodingMethod = z
  .object({
    type: z.literal('partitioned-recoding'),
    parts: z.number().int().min(1),
    model: z.discriminatedUnion('type', [
      z.object({ type: z.literal('k-anonymity'), k: z.number().int().min(2, 'k must be at least 2') }).strict(),
      z.object({ type: z.literal('l-diversity'), l: z.number().int().min(2, 'l must be at least 2') }).strict(),
      z.object({ type: z.literal('t-closeness'), t: z.number().gt(0).lte(1) }).strict(),
    ]),
    hierarchies: nameRecord(hierarchySpec, 'an object of column name → hierarchy').default({}),
    levels: levels.default({}),
  })
  .strict();

export const dpCountsMethod = z
  .object({
    type: z.literal('dp-counts'),
    epsilon: z.number().gt(0, 'epsilon must be > 0').max(20),
    /** "marginals": every 1- and 2-way marginal over `columns`; or explicit count queries. */
    queries: z.union([z.literal('marginals'), z.array(z.object({ where: nameRecord(z.string(), 'an object of column name → value') }).strict()).min(1)]),
    columns: z.array(z.string()).min(1).optional(),
    noise: z.enum(['laplace', 'generalized-laplace']).default('laplace'),
    correlation: z
      .union([
        z.object({ model: z.literal('ar1'), rho: z.number().gt(-1).lt(1) }).strict(),
        z.object({ groupBy: z.string().min(1), rho: z.number().gte(0).lt(1).default(0.5) }).strict(),
      ])
      .optional(),
    /** Each query becomes a series over the values of this column, with AR(1) noise along it. */
    series: z.object({ by: z.string().min(1), iteration: z.enum(['keep', 'refresh']).default('keep') }).strict().optional(),
    /** Answer per part, each record assigned to one of the parts independently: ε′ of one part (a Poisson sample at rate 1/parts) is reported. */
    parts: z.number().int().min(1).default(1),
    /** The public values of a column: the cells of its marginals and the points of a series, whatever the data hold. */
    domains,
  })
  .strict();

const FUTURE_METHODS: readonly string[] = [];
const AVAILABLE = 'uniform-perturbation, reconstruction-privacy, beta-privacy, safe-k-anonymity, partitioned-recoding, dp-counts';

export const method = z.discriminatedUnion('type', [uniformPerturbationMethod, reconstructionPrivacyMethod, betaPrivacyMethod, safeKAnonymityMethod, partitionedRecodingMethod, dpCountsMethod], {
  errorMap: (issue, ctx) => {
    if (issue.code === z.ZodIssueCode.invalid_union_discriminator) {
      const given = (ctx.data as { type?: unknown } | undefined)?.type;
      const future = FUTURE_METHODS.includes(String(given));
      return {
        message: future
          ? `method "${String(given)}" is not available in this version yet; available: ${AVAILABLE}`
          : `unknown method ${JSON.stringify(given)}; available: ${AVAILABLE}`,
      };
    }
    return { message: ctx.defaultError };
  },
}).superRefine((m, ctx) => {
  if (m.type === 'uniform-perturbation') checkRetentionChoice(m, ctx);
  if (m.type === 'dp-counts') {
    if (m.queries === 'marginals' && !m.columns) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['columns'], message: 'marginals need the columns to cross' });
    if (m.noise === 'generalized-laplace' && !m.correlation && !m.series) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['correlation'], message: 'generalized Laplace noise needs a correlation model (ar1 or groupBy) or a series' });
    }
    const rho = m.correlation?.rho;
    if (rho !== undefined && Math.abs(rho) > MAX_RHO) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['correlation', 'rho'], message: `ρ is capped at ${MAX_RHO}: above it, differences of answers are almost noise-free` });
  }
  if (m.type === 'safe-k-anonymity') {
    if ((m.k === 'auto' || m.sampling === 'auto') && !m.target) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['target'], message: 'k or sampling "auto" needs a target { epsilon, delta } to solve for' });
    }
    if (m.k === 'auto' && m.sampling === 'auto') ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['k'], message: 'fix either k or sampling; only one can be solved for' });
    if (m.levels === 'search' && Object.keys(m.hierarchies).length === 0) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['levels'], message: 'the lattice search needs at least one hierarchy' });
  }
});

function checkRetentionChoice(m: z.output<typeof uniformPerturbationMethod>, ctx: z.RefinementCtx): void {
  const hasRho = m.rho1 !== undefined || m.rho2 !== undefined;
  if (m.retention !== undefined && hasRho) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['retention'], message: 'give either retention or rho1 and rho2, not both' });
  } else if (m.retention === undefined && !hasRho) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['retention'], message: 'give retention, or rho1 and rho2 to derive it' });
  } else if (hasRho && (m.rho1 === undefined || m.rho2 === undefined)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: [m.rho1 === undefined ? 'rho1' : 'rho2'], message: 'rho1 and rho2 go together' });
  } else if (hasRho && m.rho1! >= m.rho2!) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['rho2'], message: 'rho2 must be greater than rho1' });
  }
}

const output = z
  .object({
    dir: z.string().min(1).default('release'),
    /**
     * Where the internal (confidential) report goes: never inside the release folder.
     * Default: a sibling of the release folder named after it with an `-internal` suffix.
     */
    internalDir: z.string().min(1).optional(),
    formats: z.array(z.enum(['csv', 'xlsx'])).min(1).default(['csv', 'xlsx']),
    /** report.json is always written; html and pdf on request. */
    report: z.array(z.enum(['html', 'json', 'pdf'])).default(['html', 'pdf', 'json']),
    /**
     * The report variant `assess` prints (the first one). A run always writes the external report
     * into the release folder and the internal one into the internal folder; kept for old job files.
     */
    variant: z
      .union([z.enum(['internal', 'external']), z.array(z.enum(['internal', 'external'])).min(1).max(2)])
      .default('internal')
      .transform((v) => (typeof v === 'string' ? [v] : [...new Set(v)])),
    delimiter: z
      .string()
      .refine((d) => d.length === 1 && !isLineOrQuote(d), 'the release delimiter must be one character other than a quote or a line break')
      .default(','),
  })
  .strict()
  .default({});

export const jobSchema = z
  .object({
    version: z.literal(1, { errorMap: () => ({ message: 'version must be 1' }) }),
    input,
    attributes: nameRecord(role, 'an object of column name → role').default({}),
    method,
    output,
  })
  .strict();

export type Job = z.output<typeof jobSchema>;
export type JobInput = z.input<typeof jobSchema>;
export type MethodSpec = Job['method'];
export type UniformPerturbationSpec = z.output<typeof uniformPerturbationMethod>;
export type ReconstructionPrivacySpec = z.output<typeof reconstructionPrivacyMethod>;
export type BetaPrivacySpec = z.output<typeof betaPrivacyMethod>;
export type SafeKAnonymitySpec = z.output<typeof safeKAnonymityMethod>;
export type PartitionedRecodingSpec = z.output<typeof partitionedRecodingMethod>;
export type DpCountsSpec = z.output<typeof dpCountsMethod>;
