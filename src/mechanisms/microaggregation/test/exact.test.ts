import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, compare, floor, parseRational, rational, type Rational } from '../../../common/exact/rational.js';
import type { JobWith } from '../../../common/job/job-parts.js';
import { SeededTestRandomSource } from '../../../common/random/source.js';
import { tableFromRows, type Table } from '../../../common/table/table.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { parseJob } from '../../../jobs/load-job.js';
import type { MicroaggregationSpec } from '../definition.js';
import { decimalText, exactColumn, exactGroupValues, informationLoss, parseDecimal } from '../exact.js';
import { runMicroaggregation } from '../node/run.js';

function run(table: Table, method: Record<string, unknown>) {
  const { job } = parseJob({ version: 1, input: { path: 'in.csv' }, attributes: {}, method, output: { dir: 'out' } }, '.');
  const imported: ImportedTable = { table, format: 'csv', sha256: '0'.repeat(64), bytes: 0, rejectedRows: [], rejectedRowCount: 0 };
  const j = job as JobWith<MicroaggregationSpec>;
  return runMicroaggregation(j, imported, j.method, { random: new SeededTestRandomSource(7), mode: 'run', baseDir: '.', progress: () => {} });
}

/** The distinct released values of column x. */
function releasedValues(outcome: ReturnType<typeof run>): string[] {
  const column = outcome.releases[0]!.table.columns.find((c) => c.name === 'x')!;
  return [...new Set(Array.from(column.codes, (code) => column.dictionary[code]!))];
}

/** The oracle, with the rationals of src/common/exact: the exact mean (or median) rounded half away from zero at d places. */
function expected(texts: readonly string[], how: 'mean' | 'median', d: number): Rational {
  const values = texts.map(parseRational);
  let centre: Rational;
  if (how === 'mean') centre = rational(values.reduce((s, v) => add(s, v), rational(0n)).num, values.reduce((s, v) => add(s, v), rational(0n)).den * BigInt(values.length));
  else {
    const sorted = [...values].sort(compare);
    const m = sorted.length;
    centre = m % 2 ? sorted[(m - 1) / 2]! : rational(add(sorted[m / 2 - 1]!, sorted[m / 2]!).num, add(sorted[m / 2 - 1]!, sorted[m / 2]!).den * 2n);
  }
  const scaled = rational(centre.num * 10n ** BigInt(d), centre.den);
  const negative = scaled.num < 0n;
  const magnitude = floor(add(rational(negative ? -scaled.num : scaled.num, scaled.den), rational(1n, 2n)));
  return rational(negative ? -magnitude : magnitude, 10n ** BigInt(d));
}

const digits = (min: number, max: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((ds) => ds.join(''));
const sign = fc.constantFrom('', '-', '+');
/** Decimal texts of adversarial magnitudes, as data would hold them. */
const adversarial = fc.oneof(
  // Near the largest double: 1.0 … 1.69 × 10^300 … 10^307 (sums of two overflow a double).
  fc.tuple(sign, fc.integer({ min: 1, max: 1 }), digits(0, 17), fc.integer({ min: 300, max: 307 })).map(([s, a, b, e]) => `${s}${a}.${b}e${e}`),
  fc.constantFrom('1e308', '-1e308', '1.7976931348623157e308', '-1.7976931348623157e308'),
  // Tiny, down to the subnormals and below (1e-330 is 0 as a double).
  fc.tuple(sign, fc.integer({ min: 1, max: 9 }), digits(0, 12), fc.integer({ min: -330, max: -290 })).map(([s, a, b, e]) => `${s}${a}.${b}e${e}`),
  // Integers at 2^53 and beyond, which doubles cannot tell apart.
  fc.tuple(sign, fc.bigInt({ min: 2n ** 53n - 5n, max: 2n ** 53n + 50n })).map(([s, v]) => `${s}${v}`),
  // Many decimals, ordinary magnitude.
  fc.tuple(sign, digits(1, 4), digits(1, 30)).map(([s, a, b]) => `${s}${a}.${b}`),
  fc.integer({ min: -1000, max: 1000 }).map(String),
);

describe('exact released values (property, adversarial magnitudes)', () => {
  it('a group\'s released value is its exact mean or median, rounded half away from zero at the stated places', () => {
    fc.assert(
      fc.property(fc.array(adversarial, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom('mean' as const, 'median' as const), (texts, d, how) => {
        const column = exactColumn(texts.map(parseDecimal), Uint32Array.from(texts, (_, r) => r));
        const partition = { groupOf: new Uint32Array(texts.length), sizes: Uint32Array.of(texts.length), count: 1 };
        const [value] = exactGroupValues(column, partition, how, d);
        const text = decimalText(value!, d);
        expect(compare(parseRational(text), expected(texts, how, d))).toBe(0);
        // Written without trailing zeros, and read back as a finite number.
        expect(text).not.toMatch(/\.\d*0$|\.$/);
        expect(Number.isFinite(Number(text))).toBe(true);
      }),
      { numRuns: 400, seed: 32_6 },
    );
  });

  it('through the run: one group (k ≤ n ≤ 2k − 1) releases the exact rounded mean of every record, and the loss figures are finite', () => {
    fc.assert(
      fc.property(fc.array(adversarial, { minLength: 2, maxLength: 9 }), fc.integer({ min: 0, max: 10 }), fc.constantFrom('mean' as const, 'median' as const), (texts, d, how) => {
        const k = Math.ceil((texts.length + 1) / 2);
        const outcome = run(tableFromRows(['x'], texts.map((t) => [t])), { type: 'microaggregation', columns: ['x'], k, aggregation: how, decimals: d });
        const released = releasedValues(outcome);
        expect(released).toHaveLength(1);
        expect(compare(parseRational(released[0]!), expected(texts, how, d))).toBe(0);
        const internal = outcome.method.internal!;
        for (const key of ['sse', 'sst', 'il1s']) expect(Number.isFinite(internal[key])).toBe(true);
        if (internal['sseOverSst'] !== undefined) expect(Number.isFinite(internal['sseOverSst'])).toBe(true);
        expect(outcome.summary.join(' ')).not.toMatch(/NaN|Infinity/);
      }),
      { numRuns: 200, seed: 1105 },
    );
  });

  it('±1e308 and 20 records of 2^53 + 1 (the reported cases)', () => {
    const huge = run(tableFromRows(['x'], [['1e308'], ['1e308'], ['-1e308'], ['1e308']]), { type: 'microaggregation', columns: ['x'], k: 2 });
    const values = releasedValues(huge);
    expect(values.every((v) => Number.isFinite(Number(v)))).toBe(true);
    // Two groups of two: {1e308, 1e308} and {−1e308, 1e308}, or the like; every value an exact mean: 1e308, 0 or −1e308.
    for (const v of values) expect(['1e+308', '0', '-1e+308']).toContain(v);
    const internal = huge.method.internal!;
    expect(Number.isFinite(internal['sseOverSst'])).toBe(true);
    expect(Number.isFinite(internal['il1s'])).toBe(true);
    const big = run(tableFromRows(['x'], Array.from({ length: 20 }, () => ['9007199254740993'])), { type: 'microaggregation', columns: ['x'], k: 2 });
    expect(releasedValues(big)).toEqual(['9007199254740993']);
    expect(big.method.internal!['sseOverSst']).toBe(0);
    expect(big.method.internal!['il1s']).toBe(0);
  });

  it('SSE/SST is stated as not computable when every column is constant and rounding moved its values', () => {
    const outcome = run(tableFromRows(['x'], [['1.005'], ['1.005'], ['1.005']]), { type: 'microaggregation', columns: ['x'], k: 2, decimals: 2 });
    expect(releasedValues(outcome)).toEqual(['1.01']);
    expect(outcome.method.internal!['sseOverSst']).toBeUndefined();
    expect(outcome.summary.join(' ')).toMatch(/information loss cannot be computed: every aggregated column is constant, yet rounding moved its values/);
  });

  it('loss figures on huge values equal those of the same data scaled down', () => {
    // Integer means (2 and 30), so rounding at 0 places moves nothing at either scale.
    const rows = ['1', '2', '3', '8', '16', '32', '64'];
    const column = (scale: string) => exactColumn(rows.map((r) => parseDecimal(`${r}${scale}`)), Uint32Array.from(rows, (_, r) => r));
    const partition = { groupOf: Uint32Array.of(0, 0, 0, 1, 1, 1, 1), sizes: Uint32Array.of(3, 4), count: 2 };
    const loss = (scale: string) => {
      const c = column(scale);
      return informationLoss([c], [exactGroupValues(c, partition, 'mean', 0)], partition, 0);
    };
    const small = loss('');
    const large = loss('e300');
    expect(large.ratio).toBeCloseTo(small.ratio!, 12);
    expect(large.il1s).toBeCloseTo(small.il1s, 12);
  });

  it('refuses a value beyond a double\'s range or with more decimal places than it takes, naming column and record', () => {
    expect(() => run(tableFromRows(['x'], [['1'], ['1e309'], ['2']]), { type: 'microaggregation', columns: ['x'], k: 2 })).toThrow(/column "x" holds "1e309", beyond the range of a number .* at record 2/);
    expect(() => run(tableFromRows(['x'], [['1'], ['1e-401'], ['2']]), { type: 'microaggregation', columns: ['x'], k: 2 })).toThrow(/column "x" holds "1e-401", more than 400 decimal places/);
  });
});
