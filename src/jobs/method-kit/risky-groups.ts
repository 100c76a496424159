import type { Grouping } from '../../common/table/micro-groups.js';
import { riskiestGroups } from '../../common/randomized-response/risk.js';
import type { RiskyGroup } from '../../common/report/report-model.js';
import type { Analysis, SensitiveAnalysis } from './analyze.js';

export interface RiskyTarget {
  readonly group: number;
  readonly value: number;
  readonly base: Omit<RiskyGroup, 'estimateBefore' | 'estimateAfter' | 'trialsAfter'>;
}

/** The groups an adversary would attack first, with the truth the custodian knows (internal view). */
export function riskyTargets(analysis: Analysis, s: SensitiveAnalysis, minSize: number, limit: number): RiskyTarget[] {
  const { grouping, plan } = analysis;
  const globalCounts = new Uint32Array(s.params.m);
  for (let i = 0; i < s.values.length; i++) globalCounts[s.values[i]!]!++;
  return riskiestGroups(grouping, s.maxCounts, s.params, minSize, limit).map((risk) => {
    const value = mostFrequentValue(grouping, s.values, risk.group, s.params.m);
    const firstRow = grouping.rowsByGroup[grouping.offsets[risk.group]!]!;
    const values = Object.create(null) as Record<string, string>;
    for (const column of plan.nonSensitive) values[column.name] = column.dictionary[column.codes[firstRow]!]!;
    return {
      group: risk.group,
      value,
      base: {
        values,
        size: risk.size,
        value: s.domain.values[value]!,
        trueFrequency: risk.fMax,
        globalFrequency: globalCounts[value]! / s.values.length,
        sizeThreshold: risk.sizeThreshold,
        passesBefore: risk.passes,
      },
    };
  });
}

function mostFrequentValue(grouping: Grouping, values: Uint32Array, group: number, m: number): number {
  const counts = new Uint32Array(m);
  for (let k = grouping.offsets[group]!; k < grouping.offsets[group + 1]!; k++) counts[values[grouping.rowsByGroup[k]!]!]!++;
  let best = 0;
  for (let v = 1; v < m; v++) if (counts[v]! > counts[best]!) best = v;
  return best;
}
