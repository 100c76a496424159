import { coefficientBetas } from '../thresholds.js';
import { parseRational, type Rational } from '../../../common/exact/rational.js';
import { exactValue } from '../../../common/job/job-parts.js';
import type { BetaPrivacySpec } from '../definition.js';
import { readReleased, valueAt, writtenForm } from '../../../jobs/method-kit/released-table.js';
import type { VerifyContext } from '../../../jobs/method-kit/node-mechanism.js';

/** β-privacy from QIT and ST alone: consistency, sizes, and count ≤ ⌊β_v·|B|⌋ in every bucket. */
export function verifyBetaPrivacy(ctx: VerifyContext, spec: BetaPrivacySpec): void {
  const { checks, report, dir, job } = ctx;
  const sensitive = report.beta?.sensitive ?? spec.sensitive ?? '';
  const delimiter = job.output.delimiter;
  let qit;
  let st;
  try {
    qit = readReleased(dir, 'qit', 'QIT', delimiter);
    st = readReleased(dir, 'st', 'ST', delimiter);
  } catch (error) {
    checks.add('released tables', false, `cannot read QIT/ST: ${(error as Error).message}`);
    return;
  }
  const inputRows = ctx.original?.rowCount ?? ctx.internal?.input.rows;
  if (inputRows !== undefined) checks.add('record count', qit.rowCount === inputRows, `QIT has ${qit.rowCount} rows; the input had ${inputRows}`);
  checks.add('no sensitive column in QIT', !qit.columns.some((c) => c.name === sensitive), `QIT columns: ${qit.columns.map((c) => c.name).join(', ')}`);
  const sizes = new Map<string, number>();
  for (let r = 0; r < qit.rowCount; r++) {
    const b = valueAt(qit, 'bucket', r);
    sizes.set(b, (sizes.get(b) ?? 0) + 1);
  }
  // β per value: from the job, or for the coefficient form from the original counts (or the report's exact values).
  // Keyed by the value as st.csv/the ST sheet wrote it (the CSV's formula guard included),
  // so a value like `-3a` finds its β however the file spells it.
  const form = writtenForm(dir, 'st');
  const betaOf = new Map<string, Rational>();
  for (const v of report.beta?.values ?? []) betaOf.set(form(v.value), parseRational(v.betaExact));
  if ('default' in spec.beta) {
    const fallback = exactValue(spec.beta.default);
    const overrides = new Map(Object.entries(spec.beta.values).map(([v, b]) => [form(v), exactValue(b)]));
    for (let r = 0; r < st.rowCount; r++) {
      const v = valueAt(st, sensitive, r);
      betaOf.set(v, overrides.get(v) ?? fallback);
    }
  } else if (ctx.original) {
    const column = ctx.original.columns.find((c) => c.name === sensitive)!;
    const counts = new Array<number>(column.dictionary.length - 1).fill(0);
    for (const code of column.codes) if (code > 0) counts[code - 1]!++;
    coefficientBetas(exactValue(spec.beta.coefficient), counts).forEach((b, i) => betaOf.set(form(column.dictionary[i + 1]!), b));
  }
  const listed = new Map<string, number>();
  const overBeta = new Map<string, number>();
  const problems: string[] = [];
  for (let r = 0; r < st.rowCount; r++) {
    const bucket = valueAt(st, 'bucket', r);
    const value = valueAt(st, sensitive, r);
    const count = Number(valueAt(st, 'count', r));
    const size = sizes.get(bucket);
    if (size === undefined) {
      problems.push(`bucket ${bucket} is in ST but not in QIT`);
      continue;
    }
    listed.set(bucket, (listed.get(bucket) ?? 0) + count);
    const beta = betaOf.get(value);
    if (!beta) {
      problems.push(`no β known for value "${value}"`);
      continue;
    }
    if (BigInt(count) * beta.den > beta.num * BigInt(size)) {
      // A count-1 entry above β can only be one of the bucket's fake values.
      if (count === 1 && spec.fakeValues > 0) overBeta.set(bucket, (overBeta.get(bucket) ?? 0) + 1);
      else problems.push(`bucket ${bucket}: "${value}" has ${count} of ${size} records, above β = ${beta.num}/${beta.den}`);
    }
  }
  for (const [bucket, n] of overBeta) if (n > spec.fakeValues) problems.push(`bucket ${bucket}: ${n} entries above β but only ${spec.fakeValues} fake value(s) per bucket`);
  checks.add('β bound of every bucket', problems.length === 0, problems.length === 0 ? `${sizes.size} buckets, every count ≤ ⌊β_v·|B|⌋` : problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : ''));
  const mismatched = [...sizes].filter(([bucket, size]) => listed.get(bucket) !== size + spec.fakeValues);
  checks.add(
    'QIT and ST agree',
    mismatched.length === 0,
    mismatched.length === 0
      ? `every bucket's ST counts sum to its QIT size${spec.fakeValues ? ` plus ${spec.fakeValues} fake value(s)` : ''}`
      : mismatched.slice(0, 5).map(([b, s]) => `bucket ${b}: QIT ${s} rows, ST lists ${listed.get(b) ?? 0}`).join('; '),
  );
  // report.json is the file under audit: its keys are compared as data (a key like
  // `constructor` or an own `__proto__` from JSON.parse must not meet Object.prototype).
  const claimedSizes = report.buckets?.sizes ?? {};
  const claimed = new Map(Object.entries(claimedSizes));
  const actual = new Map<string, number>();
  for (const size of sizes.values()) actual.set(String(size), (actual.get(String(size)) ?? 0) + 1);
  const same = claimed.size === actual.size && [...actual].every(([k, n]) => claimed.get(k) === n);
  checks.add('bucket sizes as reported', same, same ? [...actual].map(([s, n]) => `${n}×${s}`).join(', ') : `report says ${JSON.stringify(claimedSizes)}, files show ${JSON.stringify(Object.fromEntries(actual))}`);
  if (ctx.original) {
    const column = ctx.original.columns.find((c) => c.name === sensitive)!;
    const truth = new Map<string, number>();
    const written = column.dictionary.map(form);
    for (const code of column.codes) truth.set(written[code]!, (truth.get(written[code]!) ?? 0) + 1);
    const shown = new Map<string, number>();
    for (let r = 0; r < st.rowCount; r++) shown.set(valueAt(st, sensitive, r), (shown.get(valueAt(st, sensitive, r)) ?? 0) + Number(valueAt(st, 'count', r)));
    const wrong = [...truth].filter(([v, n]) => (shown.get(v) ?? 0) < n || (shown.get(v) ?? 0) > n + spec.fakeValues * sizes.size);
    checks.add('sensitive values preserved', wrong.length === 0, wrong.length === 0 ? 'ST holds every original record\'s value' : wrong.slice(0, 5).map(([v, n]) => `"${v}": ${n} records, ST lists ${shown.get(v) ?? 0}`).join('; '));
  }
}
