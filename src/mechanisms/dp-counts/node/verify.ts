import { laplaceErrorsTest, laplaceMarginalMaxTest } from '../../../common/stats/laplace-errors.js';
import { probabilityText, VERIFY_ALPHA } from '../../../common/stats/significance.js';
import { GRID_BITS } from '../../../common/random/exact-samplers.js';
import type { RandomSource } from '../../../common/random/source.js';
import type { Table } from '../../../common/table/table.js';
import type { VerifyContext } from '../../../jobs/method-kit/node-mechanism.js';
import { resolveRoles } from '../../../jobs/method-kit/plan.js';
import { resolveDomains } from '../../../jobs/method-kit/domains.js';
import type { ImportedTable } from '../../../io/input/import-types.js';
import { readReleased, writtenForm } from '../../../jobs/method-kit/released-table.js';
import { maxMatches } from './sensitivity.js';
import type { CountQuerySpec } from '../count-queries.js';
import type { DpCountsSpec } from '../definition.js';
import { planAnswers, trueAnswers } from './answers.js';
import { answersTable } from './answers-table.js';
import { halfWidth } from './noise.js';

const NUMBER_COLUMNS = ['answer', 'scale', 'lower95', 'upper95'];

/** Δ from the job alone (the queries it names; the data play no part), or undefined where it depends on more. */
function sensitivityFromJob(spec: DpCountsSpec): number | undefined {
  // A series multiplies the queries over values of the data: not re-derived here.
  if (spec.series) return undefined;
  if (spec.queries === 'marginals') {
    const c = spec.columns!.length;
    return c + (c * (c - 1)) / 2;
  }
  // Codes only need to tell the named values apart within a column.
  const columns = new Map<string, number>();
  const values = new Map<string, number>();
  const queries: CountQuerySpec[] = spec.queries.map((q) => {
    const where = new Map<number, number>();
    for (const [name, value] of Object.entries(q.where)) {
      if (!columns.has(name)) columns.set(name, columns.size);
      const key = JSON.stringify([name, value]);
      if (!values.has(key)) values.set(key, values.size);
      where.set(columns.get(name)!, values.get(key)!);
    }
    return { where };
  });
  // A repeated query returns its cached answer, so Δ counts each distinct query once, as the run does.
  const byKey = new Map<string, CountQuerySpec>();
  for (const q of queries) {
    const key = JSON.stringify([...q.where].sort((x, y) => x[0] - y[0]));
    if (!byKey.has(key)) byKey.set(key, q);
  }
  const distinct = [...byKey.values()];
  return maxMatches(distinct) ?? distinct.length;
}

/** The column's number in every row, or undefined where the release lacks it. */
function numbers(release: Table, name: string): number[] | undefined {
  const c = release.columns.find((x) => x.name === name);
  return c ? Array.from(c.codes, (code) => Number(c.dictionary[code])) : undefined;
}

/** What the release alone shows about the guarantee: Δ, b = Δ/ε, the scale printed on every answer and the 95% interval. */
function checkStatedNoise(ctx: VerifyContext, spec: DpCountsSpec, release: Table): void {
  const { checks, report } = ctx;
  const dp = report.dp;
  if (!dp) {
    checks.add('noise scale', false, 'report.json has no dp section');
    return;
  }
  const glm = spec.noise === 'generalized-laplace';
  const close = (x: number, y: number, tol: number): boolean => Math.abs(x - y) <= tol * Math.max(1, Math.abs(y));
  const delta = sensitivityFromJob(spec);
  if (delta === undefined) checks.notChecked('sensitivity Δ', 'the values of the series column, which only the original holds');
  else checks.add('sensitivity Δ', dp.sensitivity === delta, `Δ = ${delta} from the job's queries (report: ${dp.sensitivity})`);
  const b = dp.sensitivity / spec.epsilon;
  const epsilon = report.guarantee.epsilon;
  // Correlated noise claims ε = 1/b for each answer alone and no ε for the answers together: the
  // guarantee must carry none (nor \`holds\`), as the statement says.
  const stated = close(dp.scale, b, 1e-12) && close(dp.epsilonPerAnswer, 1 / b, 1e-12) && (glm ? epsilon === undefined && report.guarantee.holds === undefined : epsilon !== undefined && close(epsilon, spec.epsilon, 1e-12));
  checks.add(
    'noise scale and ε',
    stated,
    `b = Δ/ε = ${dp.sensitivity}/${spec.epsilon} = ${b.toPrecision(6)} (report: b = ${dp.scale}, ε per answer ${dp.epsilonPerAnswer}, guarantee ε = ${epsilon ?? 'none'}${glm ? ', none claimed for correlated answers together' : ''})`,
  );
  const answer = numbers(release, 'answer');
  const scale = numbers(release, 'scale');
  const lower = numbers(release, 'lower95');
  const upper = numbers(release, 'upper95');
  if (!answer || !scale || !lower || !upper) {
    checks.add('95% intervals', false, `the answers table lacks ${NUMBER_COLUMNS.filter((n) => !release.columns.some((c) => c.name === n)).join(', ')}`);
    return;
  }
  // Correlated answers are printed with six decimals; discrete ones are whole numbers.
  const printed = glm ? 1e-6 : 0;
  const half = halfWidth(b, !glm);
  const wrongScale = scale.filter((s) => !(Math.abs(s - b) <= Math.max(printed, 1e-12 * b))).length;
  const wrongInterval = answer.filter((x, i) => !(Math.abs(x - half - lower[i]!) <= 2 * printed + 1e-9 * Math.abs(x)) || !(Math.abs(x + half - upper[i]!) <= 2 * printed + 1e-9 * Math.abs(x))).length;
  const notWhole = glm ? 0 : answer.filter((x) => !Number.isInteger(x)).length;
  checks.add(
    '95% intervals',
    wrongScale === 0 && wrongInterval === 0 && notWhole === 0,
    wrongScale + wrongInterval + notWhole === 0
      ? `every one of ${answer.length} answers states scale ${b.toPrecision(6)} and the interval ±${half.toPrecision(6)} (${glm ? 'b·ln 20, continuous Laplace' : 'the exact 95% half-width of discrete Laplace'})${glm ? '' : ', and is a whole number'}`
      : [wrongScale ? `${wrongScale} answer(s) state another scale` : '', wrongInterval ? `${wrongInterval} interval(s) are not ±${half.toPrecision(6)}` : '', notWhole ? `${notWhole} answer(s) are not whole numbers` : ''].filter(Boolean).join('; '),
  );
}

/** A source for planAnswers with one part: it draws nothing, and must not. */
const NO_RANDOMNESS: RandomSource = {
  deterministic: true,
  nextUint32: () => {
    throw new Error('verify draws no randomness');
  },
};

/** The errors (answer − true count) against the stated noise law, with the original at hand. */
function checkNoiseAgainstOriginal(ctx: VerifyContext, spec: DpCountsSpec, release: Table): void {
  const { checks, report, dir, job } = ctx;
  const name = `noise against the original (α = ${VERIFY_ALPHA})`;
  if (!ctx.original) {
    checks.notChecked(name, '--original: the errors answer − true count are tested against the stated noise');
    return;
  }
  if (spec.parts > 1) {
    checks.notChecked(name, "each record's part, which the run drew at random and did not keep: the true count of a part is unknown");
    return;
  }
  // A domain read from a hierarchy file or the input's value labels is not in the release folder.
  if (Object.values(spec.domains ?? {}).some((d) => !Array.isArray(d) && d !== 'from-data')) {
    checks.notChecked(name, "the hierarchy file or value labels a domain of the job names, which the release folder does not hold");
    return;
  }
  const original = ctx.original;
  const plan = resolveRoles(job, original, { requireSensitive: false });
  // Listed domains and domains from the data need nothing but the original's table.
  // A release written before domains were a decision may name none: its cells were the data's values.
  const domains = resolveDomains(spec.domains, { imported: { table: original, format: 'csv' } as unknown as ImportedTable, baseDir: dir }, []);
  const answers = planAnswers(spec, plan, original, NO_RANDOMNESS, { resolved: domains, inputPath: 'input' });
  const truth = trueAnswers(answers, original.rowCount);
  const b = report.dp?.scale ?? Number.NaN;
  const glm = spec.noise === 'generalized-laplace';
  // The queries the original gives, row by row, must be the released ones.
  const expected = answersTable(answers, truth, b, 0, glm, spec.parts);
  const form = writtenForm(dir, 'answers');
  const labels = expected.columns.filter((c) => !NUMBER_COLUMNS.includes(c.name));
  const mismatch = release.rowCount !== expected.rowCount
    ? `${release.rowCount} released answers, ${expected.rowCount} queries on the original`
    : labels.flatMap((c) => {
        const got = release.columns.find((x) => x.name === c.name);
        if (!got) return [`no column "${c.name}"`];
        const row = Array.from(c.codes).findIndex((code, i) => form(c.dictionary[code]!) !== got.dictionary[got.codes[i]!]);
        return row < 0 ? [] : [`row ${row + 1}, column "${c.name}": "${got.dictionary[got.codes[row]!]}" where the job on the original asks "${form(c.dictionary[c.codes[row]!]!)}"`];
      })[0];
  if (mismatch) {
    checks.add(name, false, `the released queries are not the job's queries on the original: ${mismatch}`);
    return;
  }
  const answer = numbers(release, 'answer')!;
  // A repeated query repeats its answer: each distinct query's noise counts once.
  const errors: number[] = [];
  const seen = new Set<number>();
  answers.slot.forEach((s, i) => {
    if (seen.has(s)) return;
    seen.add(s);
    errors.push(answer[i]! - truth[s]!);
  });
  if (!glm) {
    const t = laplaceErrorsTest(errors, b);
    const power = t.detectsNoiseFree ? '' : `; only ${t.n} distinct answers: too few for this test to detect even noise-free answers at α (it has little power here)`;
    checks.add(
      name,
      t.ok,
      `${t.n} errors against discrete Laplace of scale b = ${b.toPrecision(4)}: ${t.zeros} zero errors (expected ${t.expectedZeros.toFixed(1)}; exact binomial tails ${probabilityText(t.logZerosLow)} below, ${probabilityText(t.logZerosHigh)} above), ` +
        `Σ|error| = ${t.sumAbs} (expected ${t.expectedSumAbs.toFixed(1)}; Chernoff bounds ${probabilityText(t.logSumLow)} below, ${probabilityText(t.logSumHigh)} above); each tail at α/4` +
        (t.ok ? '' : t.logZerosHigh < t.logZerosLow || t.logSumLow < t.logSumHigh ? ': far less noise than the stated scale (answers put back toward the true counts?)' : ': far more noise than the stated scale') +
        power,
    );
    return;
  }
  // Snapped to the 2^−20 grid and printed with six decimals.
  const slack = 2 ** -(GRID_BITS + 1) + 5e-7;
  const t = laplaceMarginalMaxTest(errors, b, slack);
  checks.add(
    name,
    t.ok,
    `${errors.length} errors of correlated noise, each marginally Laplace of scale b = ${b.toPrecision(4)}: the largest |error| is ${t.max.toPrecision(6)} (bounds for a correct release, valid whatever the correlation: ${probabilityText(t.logLow)} that it is this small, ${probabilityText(t.logHigh)} that it is this large); ` +
      'only the largest error is tested (the errors are dependent), so the test detects missing or far too large noise, not a wrong correlation' +
      (t.ok ? '' : t.logLow < t.logHigh ? ': far less noise than stated (answers put back toward the true counts?)' : ': far more noise than stated') +
      (t.detectsNoiseFree ? '' : `; at b = ${b.toPrecision(4)} the printed rounding is too coarse for this test to detect even noise-free answers (it has no power here)`),
  );
}

/** dp-counts: what the release states about its noise, and with the original the noise itself. */
export function verifyDpCounts(ctx: VerifyContext, spec: DpCountsSpec): void {
  let release: Table;
  try {
    release = readReleased(ctx.dir, 'answers', 'Answers', ctx.job.output.delimiter);
  } catch (error) {
    ctx.checks.add('answers table', false, `cannot read the answers: ${(error as Error).message}`);
    return;
  }
  checkStatedNoise(ctx, spec, release);
  checkNoiseAgainstOriginal(ctx, spec, release);
}
