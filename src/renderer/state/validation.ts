import type { ColumnInfo, OpenedFile } from '../../common/ipc/api.js';
import type { WizardState } from './wizard-state.js';
import { publicValues } from './job.js';

/** "0.05", "1/20", "5e-2" as an exact fraction of bigints, or undefined. */
export function parseExact(text: string): { num: bigint; den: bigint } | undefined {
  const t = text.trim();
  const fraction = /^(\d+)\s*\/\s*(\d+)$/.exec(t);
  if (fraction) return BigInt(fraction[2]!) === 0n ? undefined : { num: BigInt(fraction[1]!), den: BigInt(fraction[2]!) };
  const decimal = /^(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(t);
  if (!decimal || (decimal[1] === '' && (decimal[2] ?? '') === '')) return undefined;
  const frac = decimal[2] ?? '';
  let num = BigInt((decimal[1] || '0') + frac);
  let den = 10n ** BigInt(frac.length);
  const e = Number(decimal[3] ?? 0);
  if (e >= 0) num *= 10n ** BigInt(e);
  else den *= 10n ** BigInt(-e);
  return { num, den };
}

export interface BetaRow {
  readonly value: string;
  readonly count: number;
  readonly frequency: number;
  readonly betaText: string;
  readonly beta?: number;
  readonly problem?: string;
}

/** The β of every value of the sensitive column, with infeasible ones flagged exactly (f_v > β_v). */
export function betaRows(state: WizardState, column: ColumnInfo, total: number): BetaRow[] {
  const b = state.beta;
  return column.top.map((t) => {
    const frequency = t.count / total;
    if (b.mode === 'coefficient') {
      const beta = Math.min(1, b.coefficient * frequency);
      return { value: t.value, count: t.count, frequency, betaText: beta === 1 ? '1' : `${b.coefficient}·f`, beta };
    }
    const betaText = b.overrides[t.value]?.trim() || b.defaultBeta;
    const exact = parseExact(betaText);
    if (!exact || exact.num === 0n || exact.num > exact.den) return { value: t.value, count: t.count, frequency, betaText, problem: 'β must be a number or fraction in (0, 1]' };
    const beta = Number(exact.num) / Number(exact.den);
    const feasible = BigInt(t.count) * exact.den <= exact.num * BigInt(total);
    return { value: t.value, count: t.count, frequency, betaText, beta, ...(feasible ? {} : { problem: `infeasible: β must be at least f = ${t.count}/${total}` }) };
  });
}

/** Problems that block the run, keyed by the parameter they concern. */
export function parameterProblems(state: WizardState, file: OpenedFile | undefined): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!file) return { file: 'open a file first' };
  const sensitive = file.columns.filter((c) => state.roles[c.name] === 'sensitive');
  if (sensitive.length === 0) problems['roles'] = 'mark at least one column as sensitive';
  const probability = (key: string, v: number): void => {
    if (!(v > 0 && v < 1)) problems[key] = 'must lie strictly between 0 and 1';
  };
  if (state.method === 'reconstruction-privacy' || state.method === 'uniform-perturbation') {
    const params = state.method === 'reconstruction-privacy' ? state.rp : state.up;
    const retention = state.method === 'uniform-perturbation' && state.up.mode === 'rho' ? undefined : params.retention;
    if (retention !== undefined) probability('retention', retention);
    if (state.method === 'uniform-perturbation' && state.up.mode === 'rho') {
      probability('rho1', state.up.rho1);
      probability('rho2', state.up.rho2);
      if (!(state.up.rho1 < state.up.rho2)) problems['rho2'] = 'must be greater than ρ1';
    }
    probability('delta', params.delta);
    if (!(params.epsilon > 0)) problems['epsilon'] = 'must be positive';
    else if (retention !== undefined && retention > 0 && retention < 1) {
      for (const c of sensitive) {
        const eMax = 1 + (1 - retention) / c.distinct / retention;
        if (params.epsilon > eMax) problems['epsilon'] = `at most ${eMax.toFixed(4)} for “${c.name}” (groups where one value holds every record)`;
      }
    }
  } else if (state.method === 'dp-counts') {
    delete problems['roles'];
    const d = state.dp;
    if (!(d.epsilon > 0)) problems['epsilon'] = 'must be positive';
    if (d.columns.length === 0) problems['columns'] = 'choose at least one column to count';
    if (d.noise === 'generalized-laplace' && d.correlation === 'none' && !d.seriesBy) problems['correlation'] = 'correlated noise needs a correlation model or a series';
    if (d.correlation !== 'none' && !(Math.abs(d.rho) <= 0.95)) problems['rho'] = 'ρ is capped at 0.95';
    if (d.correlation === 'groupBy' && !d.groupBy) problems['groupBy'] = 'choose the grouping column';
    if (!(Number.isInteger(d.parts) && d.parts >= 1)) problems['parts'] = 'a whole number ≥ 1';
    for (const [column, text] of Object.entries(d.domains)) {
      const values = publicValues(text);
      if (values.length === 0) continue;
      if (values.length < 2) problems[`domain.${column}`] = 'list at least 2 values, or none';
      else if (new Set(values).size !== values.length) problems[`domain.${column}`] = 'a value is listed twice';
      else {
        const known = file.columns.find((c) => c.name === column);
        const missing = known && known.distinct <= known.top.length ? known.top.map((t) => t.value).filter((v) => !values.includes(v)) : [];
        if (missing.length > 0) problems[`domain.${column}`] = `the data also hold ${missing.slice(0, 4).map((v) => `“${v}”`).join(', ')}${missing.length > 4 ? ', …' : ''}`;
      }
    }
  } else if (state.method === 'safe-k-anonymity' || state.method === 'partitioned-recoding') {
    delete problems['roles'];
    if (state.method === 'partitioned-recoding' && state.partition.model !== 'k-anonymity' && sensitive.length !== 1) problems['roles'] = `${state.partition.model} needs exactly one sensitive column`;
    for (const [column, h] of Object.entries(state.hierarchies)) {
      if (h.kind === 'none') continue;
      if (h.kind === 'file' && !h.file.trim()) problems[`hierarchy.${column}`] = `give the hierarchy file of “${column}”`;
      if (h.kind === 'interval') {
        const widths = h.widths.split(',').map((w) => Number(w.trim()));
        if (widths.some((w, i) => !Number.isInteger(w) || w < 2 || (i > 0 && w % widths[i - 1]! !== 0))) problems[`hierarchy.${column}`] = `interval widths of “${column}” must be whole numbers ≥ 2, each a multiple of the previous`;
        else if (h.level > widths.length + 1) problems[`hierarchy.${column}`] = `“${column}” has only ${widths.length + 1} levels`;
      }
      if (h.kind === 'masking' && h.level > h.length) problems[`hierarchy.${column}`] = `“${column}” has only ${h.length} levels`;
    }
    if (state.method === 'safe-k-anonymity') {
      const kn = state.kanon;
      if (!(kn.useTarget && kn.solve === 'k') && !(Number.isInteger(kn.k) && kn.k >= 2)) problems['k'] = 'k must be a whole number ≥ 2';
      if (!(kn.useTarget && kn.solve === 'sampling')) {
        if (!(kn.sampling > 0 && kn.sampling < 1)) problems['sampling'] = 'must lie strictly between 0 and 1 (without sampling there is no DP guarantee)';
        else if (kn.useTarget && kn.targetEpsilon < -Math.log1p(-kn.sampling)) problems['targetEpsilon'] = `at least −ln(1−β) = ${(-Math.log1p(-kn.sampling)).toFixed(4)} for this sampling rate`;
      }
      if (kn.useTarget && !(kn.targetDelta > 0 && kn.targetDelta < 1)) problems['targetDelta'] = 'must lie strictly between 0 and 1';
      if (kn.search && !(kn.searchEpsilon > 0 && kn.searchEpsilon <= 10)) problems['searchEpsilon'] = 'must lie in (0, 10]';
      if (kn.search && kn.useTarget && kn.searchEpsilon >= kn.targetEpsilon) problems['searchEpsilon'] = 'must be smaller than the target ε, which it comes out of';
      if (kn.search && !(kn.searchLossWeight >= 0 && kn.searchLossWeight <= 1)) problems['searchLossWeight'] = 'must lie between 0 and 1';
    } else {
      const p = state.partition;
      if (!(Number.isInteger(p.parts) && p.parts >= 1)) problems['parts'] = 'a whole number ≥ 1';
      if (p.model === 'k-anonymity' && !(Number.isInteger(p.k) && p.k >= 2)) problems['k'] = 'k must be a whole number ≥ 2';
      if (p.model === 'l-diversity' && !(Number.isInteger(p.l) && p.l >= 2)) problems['l'] = 'ℓ must be a whole number ≥ 2';
      if (p.model === 't-closeness' && !(p.t > 0 && p.t <= 1)) problems['t'] = 't must lie in (0, 1]';
    }
  } else {
    if (sensitive.length > 1) problems['roles'] = 'β-privacy protects one sensitive column per job';
    const column = sensitive[0];
    if (column) {
      if (column.top.length < column.distinct) problems['beta'] = `“${column.name}” has too many distinct values for the β table`;
      const infeasible = betaRows(state, column, file.rows).filter((r) => r.problem);
      if (infeasible.length) problems['beta'] = `${infeasible.length} value(s) need a larger β: ${infeasible.slice(0, 3).map((r) => r.value).join(', ')}`;
    }
    if (!(Number.isInteger(state.beta.maxBucket) && state.beta.maxBucket >= 1)) problems['maxBucket'] = 'a whole number of records, at least 1';
    if (!(Number.isInteger(state.beta.fakeValues) && state.beta.fakeValues >= 0)) problems['fakeValues'] = 'a whole number, 0 or more';
    if (state.beta.mode === 'coefficient' && !(state.beta.coefficient > 0)) problems['coefficient'] = 'must be positive';
  }
  return problems;
}

/** Maximum retention for ρ1–ρ2 privacy over m values: (γ−1)/(m−1+γ), γ = ρ2(1−ρ1)/(ρ1(1−ρ2)). */
export function maxRetention(rho1: number, rho2: number, m: number): number {
  const gamma = (rho2 * (1 - rho1)) / (rho1 * (1 - rho2));
  return (gamma - 1) / (m - 1 + gamma);
}
