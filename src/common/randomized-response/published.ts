import { domainSourceOf, type DomainSource } from '../job/domain-words.js';
import type { DomainSpec } from '../job/job-parts.js';
import { own, type Named } from '../job/names.js';
import type { Report } from '../report/report-model.js';

/** A sensitive column as the randomized-response statements name it. */
export interface StatedSensitive {
  readonly column: string;
  /** m: the number of values of its domain. */
  readonly m: number;
  /** p: the retention probability. */
  readonly p: number;
  readonly source: DomainSource;
}

/**
 * What a randomized-response release publishes of its sensitive columns and micro groups, read
 * from the published report: each sensitive column (its domain's source from the published job),
 * and the released non-sensitive columns (the micro groups' keys), in the input's order.
 */
export function publishedRandomized(report: Report): { readonly sensitive: readonly StatedSensitive[]; readonly nonSensitive: readonly string[] } {
  const domains = (report.job['method'] as { domains?: Named<DomainSpec> } | undefined)?.domains;
  return {
    sensitive: (report.risk.bySensitive ?? []).map((s) => ({ column: s.column, m: s.domainSize, p: s.retention, source: domainSourceOf(domains === undefined ? undefined : own(domains, s.column)) })),
    nonSensitive: report.input.columns.filter((c) => c.role === 'quasi' || c.role === 'insensitive').map((c) => c.name),
  };
}
