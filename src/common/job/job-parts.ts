import { z } from 'zod';
import { reviewSettings } from '../review/release-review.js';
import { utilitySettings } from '../utility/analysis-model.js';
import { parseRational, rationalFromNumber, type Rational } from '../exact/rational.js';
import { normalizeEncoding, type TextEncoding } from './encoding.js';
import { DATE_FORMATS, NOT_A_DATE } from '../table/date-text.js';

/**
 * The parts of the v1 job file every mechanism shares: the input, the roles,
 * the output, and the value types parameters are built from. Each mechanism's
 * folder holds its own method schema; src/mechanisms/job-schema.ts joins them.
 * Every object is strict: an unknown key is an error that names it.
 */
/** The statistical packages' formats a release can also be written in, always beside the CSV (the copy verify reads and compares them with). */
export const STATISTICAL_FORMATS = ['sav', 'dta'] as const;
export type StatisticalFormat = (typeof STATISTICAL_FORMATS)[number];

/**
 * Every format a release can be written in, as output.formats names them: the one list the job
 * schema takes, and the key of the run's writers (src/jobs/release-writers.ts: one writer per format).
 */
export const OUTPUT_FORMATS = ['csv', 'xlsx', 'parquet', ...STATISTICAL_FORMATS] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const ROLES = ['identifier', 'quasi', 'sensitive', 'insensitive'] as const;
export type Role = (typeof ROLES)[number];

export const role = z
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

export const probability = (what: string) =>
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

/** A file or folder path: no NUL character, which no file system takes (Node would throw deep in a write). */
// eslint-disable-next-line no-control-regex -- the NUL character is exactly what this refuses
export const pathText = z.string().regex(/^[^\u0000]*$/, 'a path cannot hold a NUL character');

const dateReading = z.enum([...DATE_FORMATS, NOT_A_DATE], {
  errorMap: () => ({ message: `a date format is one of ${DATE_FORMATS.map((f) => `"${f}"`).join(', ')}, or "${NOT_A_DATE}" to keep the column as typed` }),
});

export const input = z
  .object({
    path: pathText.min(1, 'input.path must name the confidential file'),
    delimiter: z
      .string()
      .refine((d) => (d.length === 1 && !isLineOrQuote(d)) || d === '\\t' || d === 'tab', 'the delimiter must be one character other than a quote or a line break (or "tab")')
      .transform((d) => (d === '\\t' || d === 'tab' ? '\t' : d))
      .optional(),
    encoding: encoding.optional(),
    sheet: z.union([z.string(), z.number().int().nonnegative(), z.null()]).optional(),
    missing: z.array(z.string()).default(['']),
    onBadRow: z.enum(['error', 'skip']).default('error'),
    /**
     * Missing values of the sensitive columns: "error" (the default) refuses them, "category" makes
     * them a value of their own ("(missing)"), "exclude" drops those records (not released; their
     * number is in the internal report).
     */
    missingSensitive: z.enum(['error', 'category', 'exclude']).default('error'),
    /**
     * How a column's dates are written, by column: "dd.mm.yyyy", "dd/mm/yyyy", "mm/dd/yyyy",
     * "dd-mm-yyyy", "yyyymmdd" or "yyyy-mm-dd" (every value must then be a date so written, or an ISO
     * date such as an Excel date cell), or "text" to keep a column that looks like dates as typed.
     * A column not named is read as dates when all its values are dates in one format; one whose
     * values fit both day-first and month-first must be named here.
     */
    dates: nameRecord(dateReading, 'an object of column name → date format').optional(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'input.sha256 must be 64 hex digits').optional(),
  })
  .strict();

/** The values the data hold, chosen on purpose: the release then shows that each of them occurs in the confidential file (a published warning says so). */
export const FROM_DATA = 'from-data';
/** The value labels a statistical package's file declares for the column (metadata, not data). */
export const VALUE_LABELS = 'value-labels';

/**
 * The domain of a column, as a decision of the job: declared (the values typed, the first column of
 * an ARX hierarchy file, or the value labels of an SPSS/Stata file), which the guarantees treat as
 * public, or "from-data", which publishes which values occur.
 */
export const domainSpec = z.union(
  [
    z.array(z.string()).min(2, 'a declared domain needs at least 2 values'),
    z.literal(FROM_DATA),
    z.literal(VALUE_LABELS),
    z.object({ hierarchy: pathText.min(1, 'name the hierarchy file whose first column lists the values') }).strict(),
  ],
  { errorMap: () => ({ message: `a domain is a list of at least 2 values, {"hierarchy": "FILE.csv"} (its first column), "${VALUE_LABELS}" (the file's value labels) or "${FROM_DATA}" (the values present, published as such)` }) },
);
export type DomainSpec = z.output<typeof domainSpec>;

export const domains = nameRecord(domainSpec, 'an object of column name → domain').optional();

export const output = z
  .object({
    dir: pathText.min(1).default('release'),
    /**
     * Where the internal (confidential) report goes: never inside the release folder.
     * Default: a sibling of the release folder named after it with an `-internal` suffix.
     */
    internalDir: pathText.min(1).optional(),
    /**
     * "parquet": each released table as an Apache Parquet file too (release.parquet).
     * "sav", "dta": also an SPSS or Stata file of each released table, for downstream syntax and
     * do-files. They come beside the CSV, which stays the reference copy an auditor (and verify) reads.
     */
    formats: z
      .array(z.enum(OUTPUT_FORMATS))
      .min(1)
      .default(['csv', 'xlsx'])
      .refine((f) => !STATISTICAL_FORMATS.some((s) => f.includes(s)) || f.includes('csv'), 'output.formats: "sav" and "dta" are written beside "csv" (the copy verify reads); add "csv"'),
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
    /** CSV files: 'utf-8-bom' opens in Excel with the right characters; 'windows-1252' for older Excel in Western Europe. */
    csv: z
      .object({
        encoding: z.enum(['utf-8', 'utf-8-bom', 'windows-1252']).default('utf-8'),
        lineEnding: z.enum(['crlf', 'lf']).default('crlf'),
      })
      .strict()
      .default({}),
  })
  .strict()
  .default({});

/** The job without its method: what every mechanism reads besides its own parameters. */
export const jobShell = {
  version: z.literal(1, { errorMap: () => ({ message: 'version must be 1' }) }),
  input,
  attributes: nameRecord(role, 'an object of column name → role').default({}),
  output,
  /** The release-level disclosure review's thresholds and acknowledgements (src/common/review/release-review.ts); every default when absent. */
  review: reviewSettings.optional(),
  /** What the internal report's analysis-based utility measures: a classifier's target, contingency tables' pairs (src/common/utility/analysis-model.ts). */
  utility: utilitySettings.optional(),
};

export const jobShellSchema = z.object(jobShell).strict();
export type JobShell = z.output<typeof jobShellSchema>;
/** A job whose method is M: what a mechanism's run and verify receive. */
export type JobWith<M> = JobShell & { readonly method: M };

/** Reads a number or an exact fraction/decimal string ("8/15", "0.05") as the exact rational it writes. */
export function exactValue(value: number | string): Rational {
  return typeof value === 'number' ? rationalFromNumber(value) : parseRational(value);
}
