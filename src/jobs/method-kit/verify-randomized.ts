import type { Table } from '../../common/table/table.js';
import { countBy, readReleased, tupleKeys, writtenForm } from './released-table.js';
import type { VerifyContext } from './node-mechanism.js';
import { own } from '../../common/job/names.js';
import { FROM_DATA, type DomainSpec } from '../../common/job/job-parts.js';
import { agreementTest, type AgreementGroup } from '../../common/randomized-response/agreement-test.js';
import { probabilityText, VERIFY_ALPHA } from '../../common/stats/significance.js';
import type { CheckList } from './checks.js';

/** Counts of values by group key: keys[i] is row i's group, values[i] its value. */
export function countsByGroup(keys: readonly string[], values: readonly string[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  keys.forEach((key, i) => {
    let counts = out.get(key);
    if (!counts) out.set(key, (counts = new Map()));
    counts.set(values[i]!, (counts.get(values[i]!) ?? 0) + 1);
  });
  return out;
}

/** The agreement of released and true values against the retention's law (agreement-test.ts), as one check. */
export function addAgreementCheck(checks: CheckList, column: string, groups: readonly AgreementGroup[], p: number, m: number, untested: string): void {
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

/** One sensitive column's release beside the original, for a mechanism's checks against the original. */
export interface OriginalComparison {
  /** The sensitive column. */
  readonly column: string;
  readonly original: Table;
  /** The released table holding the column. */
  readonly release: Table;
  /** The quasi-identifiers and insensitive columns: a record's micro group. */
  readonly nonSensitive: readonly string[];
  /** The original's micro-group key per row, in the written form of the release (formula guard included). */
  readonly keys: readonly string[];
  /** Released rows per micro-group key (a mechanism may consume it). */
  readonly released: Map<string, number>;
  /** Released values per micro-group key. */
  readonly releasedValues: Map<string, Map<string, number>>;
  /** The original's values in the written form of the release. */
  readonly writtenForm: (value: string) => string;
  /** The domain size m and the retention p the run used. */
  readonly m: number;
  readonly p: number;
}

/** What one randomized mechanism checks beyond the released columns and domains both share. */
export interface RandomizedVerification<S> {
  /** Whether each file holds its own sensitive column only (reconstruction privacy samples per attribute). */
  readonly ownFile: boolean;
  /** The retention the run used for a column of m values (exact, as the run computes it). */
  readonly retention: (spec: S, m: number) => number;
  /** The checks that need the original, each named as verify lists it when --original is absent. */
  readonly needsOriginal: readonly string[];
  readonly checkAgainstOriginal: (checks: CheckList, ctx: VerifyContext, spec: S, c: OriginalComparison) => void;
}

type RandomizedSpec = { readonly domains?: Readonly<Record<string, DomainSpec>> | undefined };

/** Released columns, counts and domains of a randomized release, then the mechanism's own checks against the original. */
export function verifyRandomized<S extends RandomizedSpec>(how: RandomizedVerification<S>): (ctx: VerifyContext, spec: S) => void {
  return (ctx, spec) => {
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
      const { ownFile } = how;
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
        for (const name of how.needsOriginal) checks.notChecked(`${s.column}: ${name}`, '--original');
        continue;
      }
      const releasedKeys = tupleKeys(release, nonSensitive);
      const released = countBy(releasedKeys);
      const releasedValues = countsByGroup(releasedKeys, tupleKeys(release, [s.column]));
      // The input's rows as the format read back wrote them (the CSV's formula guard included).
      const keys = tupleKeys(ctx.original, nonSensitive, writtenForm(dir, stem));
      const m = domain?.length ?? s.domainSize;
      how.checkAgainstOriginal(checks, ctx, spec, {
        column: s.column,
        original: ctx.original,
        release,
        nonSensitive,
        keys,
        released,
        releasedValues,
        writtenForm: writtenForm(dir, stem),
        m,
        p: how.retention(spec, m),
      });
    }
  };
}
