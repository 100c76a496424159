import { offerMicroGroups } from '../../common/utility/query-pool.js';
import { groupRows, type Grouping } from '../../common/table/micro-groups.js';
import { maxRetentionForRho } from '../../common/randomized-response/perturbation/retention.js';
import { rationalFromNumber, toNumber, type Rational } from '../../common/exact/rational.js';
import type { PrivacyParameters } from '../../common/randomized-response/bounds.js';
import { groupValueCounts, type GroupValueCounts } from '../../common/randomized-response/group-counts.js';
import { assessGroups, type RiskSummary } from '../../common/randomized-response/risk.js';
import { DomainError, domainValues, OutsideDomainError, sensitiveDomain, type SensitiveDomain } from '../../common/table/sensitive-domain.js';
import { asInputProblem, resolveDomains, type DomainSource, type DomainSources } from './domains.js';
import type { Named } from '../../common/job/names.js';
import type { Column } from '../../common/table/table.js';
import type { ImportedTable } from '../../io/input/import-types.js';
import { JobError } from '../../common/job/job-error.js';
import type { DomainSpec, JobWith } from '../../common/job/job-parts.js';
import type { ReconstructionPrivacySpec } from '../../mechanisms/reconstruction-privacy/definition.js';
import type { UniformPerturbationSpec } from '../../mechanisms/uniform-perturbation/definition.js';

export type RandomizedSpec = UniformPerturbationSpec | ReconstructionPrivacySpec;
import { resolveRoles, type Plan } from './plan.js';

export interface SensitiveAnalysis {
  readonly column: Column;
  readonly domain: SensitiveDomain;
  /** Where the domain comes from: declared (public) or the data's values. */
  readonly domainSource: DomainSource;
  readonly values: Uint32Array;
  readonly retention: Rational;
  readonly gamma?: Rational;
  readonly params: PrivacyParameters;
  /** Each micro group's value counts (the release reads them too); maxCounts is their largest per group. */
  readonly counts: GroupValueCounts;
  readonly maxCounts: Uint32Array;
  readonly risk: RiskSummary;
}

export interface Analysis {
  readonly imported: ImportedTable;
  readonly plan: Plan;
  readonly grouping: Grouping;
  readonly sensitive: readonly SensitiveAnalysis[];
}

/**
 * Everything both `assess` and `run` need: roles, domains, micro groups, the
 * (ε,δ) test of every group. Infeasible settings stop here, before any output.
 */
export function analyze(
  job: JobWith<RandomizedSpec>,
  imported: ImportedTable,
  baseDir: string,
  onGrouped?: (plan: Plan, sensitive: readonly { readonly values: Uint32Array; readonly m: number; readonly counts: GroupValueCounts }[], grouping: Grouping) => void,
): Analysis {
  const { table } = imported;
  const plan = resolveRoles(job, table);
  const method = job.method;
  const coded = sensitiveDomains(method.domains, plan.sensitive, { imported, baseDir }, job.input.path).map(({ column, domain, domainSource }) => ({ column, domain, domainSource, values: domainValues(column, domain), m: domain.values.length }));
  const grouping = groupRows(plan.nonSensitive, table.rowCount);
  // Each group's counts of each sensitive column's values: the risk test, the release and the utility figure read them.
  const counted = coded.map((c) => ({ ...c, counts: groupValueCounts(grouping, c.values, c.m) }));
  // The utility figure counts over these micro groups (and, for one sensitive column, their value counts) instead of grouping the rows again.
  const only = counted.length === 1 ? counted[0]! : undefined;
  offerMicroGroups(plan.nonSensitive, only ? { ...grouping, valueCounts: { sensitive: only.values, ...only.counts } } : grouping);
  // Work that needs only the codes and the groups (the utility figure's pool) can start before the groups are tested.
  onGrouped?.(plan, counted, grouping);
  const sensitive = counted.map(({ column, domain, domainSource, values, m, counts }): SensitiveAnalysis => {
    let retention: Rational;
    let gamma: Rational | undefined;
    // Only uniform perturbation may state ρ1 and ρ2 instead of a retention; its schema requires one of the two.
    if (method.retention === undefined && 'rho1' in method) {
      ({ retention, gamma } = maxRetentionForRho(rationalFromNumber(method.rho1!), rationalFromNumber(method.rho2!), m));
    } else {
      retention = rationalFromNumber(method.retention!);
    }
    const params: PrivacyParameters = { p: toNumber(retention), m, epsilon: method.epsilon, delta: method.delta, bound: method.bound };
    const maxCounts = counts.maxCount;
    const risk = assessGroups(grouping, maxCounts, params);
    if (risk.epsilonOutOfRange > 0) {
      throw new JobError(
        `ε = ${method.epsilon} is outside the valid range for ${risk.epsilonOutOfRange} micro group(s) of "${column.name}" ` +
          `(ε must not exceed 1 + ((1−p)/m)/(p·f_max)); the largest valid ε here is ${floorTo(risk.largestValidEpsilon, 6)}`,
        'method.epsilon',
      );
    }
    // A method that can sample an unprotectable group (reconstruction privacy) may be told to refuse instead.
    if ('unprotectable' in method && method.unprotectable === 'reject' && risk.unprotectable > 0) {
      throw new JobError(
        `${risk.unprotectable} micro group(s) of "${column.name}" cannot be protected at p = ${params.p}, ε = ${params.epsilon}, ` +
          `δ = ${params.delta} (s_g < 1); lower the retention, or set method.unprotectable to "suppress"`,
        'method.retention',
      );
    }
    return { column, domain, domainSource, values, retention, ...(gamma ? { gamma } : {}), params, counts, maxCounts, risk };
  });
  return { imported, plan, grouping, sensitive };
}

/**
 * The domain of each sensitive column as the job decides it (declared, or "from-data" on purpose):
 * a domain named for another column, or a sensitive column the job decides nothing for, is a job
 * error; records outside a declared domain an input problem.
 */
export function sensitiveDomains(
  specs: Named<DomainSpec> | undefined,
  sensitive: readonly Column[],
  sources: DomainSources,
  inputPath: string,
): { readonly column: Column; readonly domain: SensitiveDomain; readonly domainSource: DomainSource }[] {
  for (const name of Object.keys(specs ?? {})) {
    if (!sensitive.some((c) => c.name === name)) {
      throw new JobError(`"${name}" is not a sensitive column; domains are declared for sensitive columns only`, `method.domains.${name}`);
    }
  }
  const decided = resolveDomains(specs, sources, sensitive.map((c) => c.name));
  return sensitive.map((column) => {
    const resolved = decided.get(column.name)!;
    return { column, domain: jobDomain(column, resolved.values, inputPath), domainSource: resolved.source };
  });
}

/**
 * The sensitive domain, its problems reported as job errors on the key that set it; records outside
 * a declared domain as a problem of the input (`inputPath`).
 */
export function jobDomain(column: Column, declared: readonly string[] | undefined, inputPath: string): SensitiveDomain {
  return domainCheck(declared ? `method.domains.${column.name}` : `attributes.${column.name}`, inputPath, () => sensitiveDomain(column, declared));
}

/**
 * Runs a check of a column's domain: records outside a declared domain are an input problem named
 * by the input file (exit 3); any other DomainError is a job error under `key`.
 */
export function domainCheck<T>(key: string, inputPath: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof OutsideDomainError) throw asInputProblem(error, inputPath);
    if (error instanceof DomainError) throw new JobError(error.message, key);
    throw error;
  }
}

function floorTo(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.floor(value * scale) / scale;
}
