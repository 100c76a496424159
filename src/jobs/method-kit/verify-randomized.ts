import { groupRows } from '../../common/table/micro-groups.js';
import { rationalFromNumber, toNumber } from '../../common/exact/rational.js';
import { maxEpsilon, sizeThreshold, type PrivacyParameters } from '../../common/randomized-response/bounds.js';
import type { Table } from '../../common/table/table.js';
import type { ReconstructionPrivacySpec } from '../../mechanisms/reconstruction-privacy/definition.js';
import type { UniformPerturbationSpec } from '../../mechanisms/uniform-perturbation/definition.js';
import { countBy, readReleased, tupleKeys, writtenForm } from './released-table.js';
import type { VerifyContext } from './node-mechanism.js';
import { own } from '../../common/job/names.js';
import { FROM_DATA } from '../../common/job/job-parts.js';
import { maxOf } from '../../common/extremes.js';
import { agreementTest, type AgreementGroup } from '../../common/randomized-response/agreement-test.js';
import { maxRetentionForRho } from '../../common/randomized-response/perturbation/retention.js';
import { probabilityText, VERIFY_ALPHA } from '../../common/stats/significance.js';
import type { CheckList } from './checks.js';

/** The retention the run used for a column of m values: as given, or the largest ρ1–ρ2 allows (exact, as the run computes it). */
function retentionOf(spec: UniformPerturbationSpec | ReconstructionPrivacySpec, m: number): number {
  if (spec.retention !== undefined) return toNumber(rationalFromNumber(spec.retention));
  const { rho1, rho2 } = spec as UniformPerturbationSpec;
  return toNumber(maxRetentionForRho(rationalFromNumber(rho1!), rationalFromNumber(rho2!), m).retention);
}

/** Counts of values by group key: keys[i] is row i's group, values[i] its value. */
function countsByGroup(keys: readonly string[], values: readonly string[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  keys.forEach((key, i) => {
    let counts = out.get(key);
    if (!counts) out.set(key, (counts = new Map()));
    counts.set(values[i]!, (counts.get(values[i]!) ?? 0) + 1);
  });
  return out;
}

/** The agreement of released and true values against the retention's law (agreement-test.ts), as one check. */
function addAgreementCheck(checks: CheckList, column: string, groups: readonly AgreementGroup[], p: number, m: number, untested: string): void {
  const name = `${column}: agreement with the original (α = ${VERIFY_ALPHA})`;
  if (groups.length === 0) {
    checks.add(name, true, `no group published whole to test${untested}`);
    return;
  }
  const t = agreementTest(groups, p, m);
  const share = (x: number): string => `${((100 * x) / t.records).toFixed(1)}%`;
  const what =
    `${t.records} records in ${t.groups} micro groups: agreement statistic ${t.statistic.toFixed(2)} (${share(t.statistic)}), ` +
    `expected ${t.expected.toFixed(2)} (${share(t.expected)}) at retention p = ${p}, m = ${m}; ` +
    `Chernoff bounds for a correct release: Pr[≥ observed] ≤ ${probabilityText(t.logUpper)}, Pr[≤ observed] ≤ ${probabilityText(t.logLower)}`;
  const verdict = t.ok
    ? ''
    : t.logUpper < t.logLower
      ? ': released values agree with the true ones far more often than perturbation at this retention allows (values put back?)'
      : ': released values agree with the true ones far less often than perturbation at this retention gives';
  checks.add(name, t.ok, `${what}${verdict}${untested}`);
}

/** Uniform perturbation and reconstruction privacy: released columns, counts, domains, and Algorithm 1's footprint. */
export function verifyRandomized(ctx: VerifyContext, spec: UniformPerturbationSpec | ReconstructionPrivacySpec): void {
  const { checks, report, dir, job } = ctx;
  const roles = new Map(report.input.columns.map((c) => [c.name, c.role]));
  const nonSensitive = report.input.columns.filter((c) => c.role === 'quasi' || c.role === 'insensitive').map((c) => c.name);
  // The published report lists the released columns only; the internal one, when at hand, also the identifiers.
  const listed = new Set(report.input.columns.filter((c) => c.role !== 'identifier').map((c) => c.name));
  const identifiers = (ctx.internal?.input.columns ?? report.input.columns).filter((c) => c.role === 'identifier').map((c) => c.name);
  for (const s of report.risk.bySensitive ?? []) {
    const stem = s.releaseFile ?? 'release';
    let release: Table;
    try {
      release = readReleased(dir, stem, stem === 'release' ? 'Release' : `Release ${s.column}`.slice(0, 31), job.output.delimiter);
    } catch (error) {
      checks.add(`${s.column}: released table`, false, `cannot read ${stem}: ${(error as Error).message}`);
      continue;
    }
    const files = report.output?.files ?? [];
    const listedRows = (files.find((f) => f.name === `${stem}.csv` || f.name === `${stem}.parquet`) ?? files.find((f) => f.name === 'release.xlsx'))?.rows;
    checks.add(`${s.column}: record count`, listedRows === undefined || listedRows === release.rowCount, `${release.rowCount} released rows`);
    // Uniform perturbation releases every sensitive column, each perturbed, in one file; reconstruction
    // privacy samples per attribute, so each file may hold its own sensitive column only.
    const ownFile = spec.type === 'reconstruction-privacy';
    const leaked = release.columns.filter((c) => identifiers.includes(c.name) || !listed.has(c.name) || (ownFile && roles.get(c.name) === 'sensitive' && c.name !== s.column));
    const clean = ownFile ? 'no identifier and no other sensitive column is released' : 'no identifier is released';
    checks.add(`${s.column}: columns`, leaked.length === 0, leaked.length === 0 ? clean : `released but must not be: ${leaked.map((c) => c.name).join(', ')}`);
    const declared = spec.domains ? own(spec.domains, s.column) : undefined;
    const originalColumn = ctx.original?.columns.find((c) => c.name === s.column);
    // A typed domain is in the job; one from the data is the original's values; a hierarchy file or the
    // input's value labels are not in the release folder: their number m is what can be checked.
    const domain = Array.isArray(declared) ? declared : declared === undefined || declared === FROM_DATA ? originalColumn?.dictionary.slice(1) : undefined;
    const saColumn = release.columns.find((c) => c.name === s.column);
    if (!domain && declared !== undefined && saColumn) {
      const distinct = saColumn.dictionary.filter((v, code) => code > 0 || v !== '').length;
      checks.add(`${s.column}: domain`, distinct <= s.domainSize, `${distinct} distinct released values, at most m = ${s.domainSize} (the declared domain itself is not in the release folder)`);
    }
    if (domain && saColumn) {
      const allowed = new Set(domain.map(writtenForm(dir, stem)));
      const outside = saColumn.dictionary.filter((v, code) => code > 0 || v !== '').filter((v) => !allowed.has(v));
      checks.add(`${s.column}: domain`, outside.length === 0 && domain.length === s.domainSize, outside.length === 0 ? `every released value is in the domain of ${domain.length} values (m = ${s.domainSize} in the report)` : `values outside the domain: ${outside.slice(0, 5).join(', ')}`);
    }
    if (!ctx.original) {
      checks.notChecked(`${s.column}: agreement with the original`, '--original: the released values are tested against the true ones');
      if (spec.type === 'uniform-perturbation') checks.notChecked(`${s.column}: non-sensitive columns unchanged`, '--original');
      else {
        checks.notChecked(`${s.column}: (ε,δ) test of every micro group`, '--original');
        checks.notChecked(`${s.column}: Algorithm 1 footprint`, '--original');
      }
      continue;
    }
    const releasedKeys = tupleKeys(release, nonSensitive);
    const released = countBy(releasedKeys);
    const releasedValues = countsByGroup(releasedKeys, tupleKeys(release, [s.column]));
    // The input's rows as the format read back wrote them (the CSV's formula guard included).
    const keys = tupleKeys(ctx.original, nonSensitive, writtenForm(dir, stem));
    const groups = countBy(keys);
    const m = domain?.length ?? s.domainSize;
    const p = retentionOf(spec, m);
    if (spec.type === 'uniform-perturbation') {
      const same = groups.size === released.size && [...groups].every(([k, n]) => released.get(k) === n);
      checks.add(`${s.column}: non-sensitive columns unchanged`, same, same ? 'every input record appears once with its non-sensitive values' : 'the multiset of non-sensitive tuples differs from the input');
      const truth = countsByGroup(keys, tupleKeys(ctx.original, [s.column], writtenForm(dir, stem)));
      addAgreementCheck(checks, s.column, [...truth].map(([key, counts]) => ({ truth: counts, released: releasedValues.get(key) ?? new Map() })), p, m, '');
      continue;
    }
    // Reconstruction privacy: recompute every micro group's f_max and s_g from the original.
    const sensitive = ctx.original.columns.find((c) => c.name === s.column)!;
    const grouping = groupRows(nonSensitive.map((n) => ctx.original!.columns.find((c) => c.name === n)!), ctx.original.rowCount);
    const params: PrivacyParameters = { p, m, epsilon: spec.epsilon, delta: spec.delta, bound: spec.bound };
    const trueText = sensitive.dictionary.map(writtenForm(dir, stem));
    // Groups published whole: each record perturbed once, the law agreement-test.ts tests.
    const whole: AgreementGroup[] = [];
    let sampledGroups = 0;
    let sampledRows = 0;
    let violatingBefore = 0;
    let epsilonOutOfRange = 0;
    const inconsistent: string[] = [];
    const counts = new Map<number, number>();
    for (let g = 0; g < grouping.groupCount; g++) {
      counts.clear();
      for (let k = grouping.offsets[g]!; k < grouping.offsets[g + 1]!; k++) {
        const code = sensitive.codes[grouping.rowsByGroup[k]!]!;
        counts.set(code, (counts.get(code) ?? 0) + 1);
      }
      const size = grouping.offsets[g + 1]! - grouping.offsets[g]!;
      const fMax = maxOf(counts.values()) / size;
      if (spec.epsilon > maxEpsilon(fMax, params.p, m)) epsilonOutOfRange++;
      const threshold = sizeThreshold(fMax, params);
      if (size > threshold) violatingBefore++;
      const key = keys[grouping.rowsByGroup[grouping.offsets[g]!]!]!;
      const published = released.get(key) ?? 0;
      released.delete(key);
      if (size <= threshold) {
        if (threshold >= 1 && published !== size) inconsistent.push(`a group of ${size} (safe, s_g = ${threshold.toFixed(2)}) shows ${published} rows`);
        if (threshold >= 1) whole.push({ truth: new Map([...counts].map(([code, n]) => [trueText[code]!, n])), released: releasedValues.get(key) ?? new Map() });
        continue;
      }
      sampledGroups++;
      sampledRows += size;
      if (published === 0) continue;
      // A sampled group publishes t trials scaled by ⌊|g|/t⌋ or ⌈|g|/t⌉ copies each, with t at most about s_g.
      const limit = Math.min(size, Math.floor(sizeThreshold(1 / m, params)) + counts.size);
      let fits = false;
      for (let t = 1; t <= limit && !fits; t++) fits = Math.floor(size / t) * t <= published && published <= Math.ceil(size / t) * t;
      if (!fits) inconsistent.push(`a sampled group of ${size} shows ${published} rows, more than scaling at most ${limit} trials allows`);
    }
    // A sampled group's released rows are copies of fewer trials, scaled: not the one-draw-per-record law.
    const untested = sampledGroups > 0 ? `; ${sampledGroups} sampled group(s) of ${sampledRows} records not tested (their rows are scaled copies of sampled trials)` : '';
    addAgreementCheck(checks, s.column, whole, p, m, untested);
    checks.add(`${s.column}: ε in the valid range`, epsilonOutOfRange === 0, epsilonOutOfRange === 0 ? `ε = ${spec.epsilon} ≤ ε_max(g) for every micro group` : `ε exceeds ε_max for ${epsilonOutOfRange} group(s)`);
    // The count before protection is a fact of the input: only the internal report states it.
    const claimed = ctx.internal?.risk.bySensitive?.find((x) => x.column === s.column)?.violatingBefore;
    checks.add(
      `${s.column}: (ε,δ) test of every micro group`,
      claimed === undefined || violatingBefore === claimed,
      `${grouping.groupCount} micro groups recomputed; ${violatingBefore} exceed s_g and must be sampled (internal report: ${claimed ?? 'not found'})`,
    );
    checks.add(
      `${s.column}: Algorithm 1 footprint`,
      inconsistent.length === 0 && released.size === 0,
      inconsistent.length === 0 && released.size === 0
        ? 'safe groups are published whole, sampled groups within scaling bounds, no group that is not in the input'
        : [...inconsistent.slice(0, 3), ...(released.size ? [`${released.size} released tuple(s) match no input micro group`] : [])].join('; '),
    );
  }
}
