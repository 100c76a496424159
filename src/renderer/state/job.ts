import type { HierarchyChoice, Role, WizardState } from './wizard-state.js';
import { initialState, NO_HIERARCHY } from './wizard-state.js';
import { named, own } from './names.js';

/** The job file the wizard stands for: the CLI runs exactly this, the report embeds it. */
/** The typed public values of the counted and series columns, as the job's domains. */
export function publicValues(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function publicDomains(d: WizardState['dp']): { domains?: Record<string, string[]> } {
  const used = new Set([...d.columns, ...(d.seriesBy ? [d.seriesBy] : [])]);
  const entries = Object.entries(d.domains)
    .filter(([c, text]) => used.has(c) && publicValues(text).length > 0)
    .map(([c, text]) => [c, publicValues(text)] as const);
  return entries.length > 0 ? { domains: Object.fromEntries(entries) } : {};
}

export function buildJob(state: WizardState): Record<string, unknown> {
  const o = state.fileOptions;
  const missing = o.missing.split(',').map((t) => t.trim());
  const input: Record<string, unknown> = { path: state.inputPath, missing: [...new Set(missing)] };
  if (o.delimiter) input['delimiter'] = o.delimiter;
  if (o.encoding) input['encoding'] = o.encoding;
  if (o.sheet) input['sheet'] = o.sheet;
  if (state.file?.sha256) input['sha256'] = state.file.sha256;
  let method: Record<string, unknown>;
  if (state.method === 'uniform-perturbation') {
    const up = state.up;
    method = {
      type: 'uniform-perturbation',
      ...(up.mode === 'retention' ? { retention: up.retention } : { rho1: up.rho1, rho2: up.rho2 }),
      epsilon: up.epsilon, delta: up.delta, bound: up.bound,
    };
  } else if (state.method === 'reconstruction-privacy') {
    const rp = state.rp;
    method = { type: 'reconstruction-privacy', retention: rp.retention, epsilon: rp.epsilon, delta: rp.delta, bound: rp.bound, strict: rp.strict };
  } else if (state.method === 'dp-counts') {
    const d = state.dp;
    method = {
      type: 'dp-counts',
      epsilon: d.epsilon,
      queries: 'marginals',
      columns: [...d.columns],
      noise: d.noise,
      ...(d.correlation === 'ar1' ? { correlation: { model: 'ar1', rho: d.rho } } : d.correlation === 'groupBy' ? { correlation: { groupBy: d.groupBy, rho: d.rho } } : {}),
      ...(d.seriesBy ? { series: { by: d.seriesBy, iteration: d.iteration } } : {}),
      parts: d.parts,
      ...publicDomains(d),
    };
  } else if (state.method === 'safe-k-anonymity' || state.method === 'partitioned-recoding') {
    const { hierarchies, levels } = recodingOf(state);
    if (state.method === 'safe-k-anonymity') {
      const kn = state.kanon;
      method = {
        type: 'safe-k-anonymity',
        k: kn.useTarget && kn.solve === 'k' ? 'auto' : kn.k,
        sampling: kn.useTarget && kn.solve === 'sampling' ? 'auto' : kn.sampling,
        hierarchies,
        levels: kn.search ? 'search' : levels,
        ...(kn.search ? { searchEpsilon: kn.searchEpsilon, searchLossWeight: kn.searchLossWeight, searchStrategy: kn.searchStrategy } : {}),
        ...(kn.useTarget ? { target: { epsilon: kn.targetEpsilon, delta: kn.targetDelta } } : {}),
      };
    } else {
      const p = state.partition;
      const model = p.model === 'k-anonymity' ? { type: p.model, k: p.k } : p.model === 'l-diversity' ? { type: p.model, l: p.l } : { type: p.model, t: p.t };
      method = { type: 'partitioned-recoding', parts: p.parts, model, hierarchies, levels };
    }
  } else {
    const b = state.beta;
    method = {
      type: 'beta-privacy',
      beta: b.mode === 'coefficient' ? { coefficient: b.coefficient } : { default: b.defaultBeta, values: Object.fromEntries(Object.entries(b.overrides).filter(([, v]) => v.trim() !== '')) },
      algorithm: b.algorithm,
      maxBucket: b.maxBucket,
      fakeValues: b.fakeValues,
    };
  }
  const out = state.output;
  const report = [...(out.html ? ['html'] : []), ...(out.pdf ? ['pdf'] : []), 'json'];
  return {
    version: 1,
    input,
    attributes: named(state.roles),
    method,
    output: {
      dir: out.dir,
      formats: [...(out.csv ? ['csv'] : []), ...(out.xlsx ? ['xlsx'] : [])],
      report,
      ...(out.internalDir.trim() ? { internalDir: out.internalDir.trim() } : {}),
    },
  };
}

/** The fixed levels as one comparable key (sorted by column), for telling whether they changed. */
export function levelsKey(state: WizardState): string {
  const { hierarchies, levels } = recodingOf(state);
  return JSON.stringify(Object.keys(hierarchies).sort().map((c) => [c, hierarchies[c], own(levels, c) ?? 0]));
}

/**
 * True when safe k-anonymity runs at fixed levels that differ from those a risk preview of the same
 * file showed: the levels were then chosen by looking at this data.
 */
export function levelsChosenAfterPreview(state: WizardState): boolean {
  const seen = state.previewedLevels;
  return state.method === 'safe-k-anonymity' && !state.kanon.search && seen !== undefined && seen.path === state.file?.path && seen.levels !== levelsKey(state);
}

/** The hierarchies and levels of the job, from the per-column choices. */
export function recodingOf(state: WizardState): { hierarchies: Record<string, unknown>; levels: Record<string, number> } {
  const hierarchies = named<unknown>();
  const levels = named<number>();
  for (const [column, h] of Object.entries(state.hierarchies)) {
    if (h.kind === 'none' || own(state.roles, column) === 'identifier') continue;
    if (h.kind === 'file') hierarchies[column] = h.file;
    if (h.kind === 'interval') hierarchies[column] = { type: 'interval', widths: h.widths.split(',').map((w) => Number(w.trim())).filter((w) => w > 0) };
    if (h.kind === 'masking') hierarchies[column] = { type: 'masking', length: h.length };
    if (h.level > 0) levels[column] = h.level;
  }
  return { hierarchies, levels };
}

type Json = Record<string, unknown>;
const num = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);

/** Restores the wizard from a saved job file (the input is inspected again by the caller). */
export function stateFromJob(job: Json): WizardState {
  const input = (job['input'] ?? {}) as Json;
  const method = (job['method'] ?? {}) as Json;
  const output = (job['output'] ?? {}) as Json;
  const formats = Array.isArray(output['formats']) ? (output['formats'] as string[]) : ['csv', 'xlsx'];
  const report = Array.isArray(output['report']) ? (output['report'] as string[]) : ['html', 'pdf', 'json'];
  const state: WizardState = {
    ...initialState,
    step: 'open',
    inputPath: String(input['path'] ?? ''),
    fileOptions: {
      delimiter: String(input['delimiter'] ?? ''),
      encoding: String(input['encoding'] ?? ''),
      missing: Array.isArray(input['missing']) ? (input['missing'] as string[]).join(', ') : initialState.fileOptions.missing,
      sheet: input['sheet'] === undefined || input['sheet'] === null ? '' : String(input['sheet']),
    },
    roles: named(Object.entries((job['attributes'] ?? {}) as Json).map(([name, role]): [string, Role] => [name, (role === 'quasi-identifier' ? 'quasi' : role) as Role])),
    output: {
      dir: String(output['dir'] ?? ''),
      csv: formats.includes('csv'), xlsx: formats.includes('xlsx'), html: report.includes('html'), pdf: report.includes('pdf'),
      internalDir: typeof output['internalDir'] === 'string' ? output['internalDir'] : '',
    },
  };
  const type = method['type'];
  if (type === 'uniform-perturbation') {
    const rho = method['rho1'] !== undefined;
    return { ...state, method: type, up: { mode: rho ? 'rho' : 'retention', retention: num(method['retention'], 0.5), rho1: num(method['rho1'], 0.1), rho2: num(method['rho2'], 0.5), epsilon: num(method['epsilon'], 0.5), delta: num(method['delta'], 0.3), bound: method['bound'] === 'full' ? 'full' : 'simplified' } };
  }
  if (type === 'dp-counts') {
    const correlation = method['correlation'] as Json | undefined;
    const series = method['series'] as Json | undefined;
    return {
      ...state,
      method: type,
      dp: {
        epsilon: num(method['epsilon'], 1),
        columns: Array.isArray(method['columns']) ? (method['columns'] as string[]) : [],
        noise: method['noise'] === 'generalized-laplace' ? 'generalized-laplace' : 'laplace',
        correlation: correlation ? (correlation['model'] === 'ar1' ? 'ar1' : 'groupBy') : 'none',
        rho: num(correlation?.['rho'], 0.5),
        groupBy: String(correlation?.['groupBy'] ?? ''),
        seriesBy: String(series?.['by'] ?? ''),
        iteration: series?.['iteration'] === 'refresh' ? 'refresh' : 'keep',
        parts: num(method['parts'], 1),
        domains: named(Object.entries((method['domains'] ?? {}) as Record<string, string[]>).map(([c, values]): [string, string] => [c, values.join(', ')])),
      },
    };
  }
  if (type === 'safe-k-anonymity' || type === 'partitioned-recoding') {
    const levels = (typeof method['levels'] === 'object' && method['levels'] !== null ? method['levels'] : {}) as Record<string, number>;
    const hierarchies = named<HierarchyChoice>();
    for (const [column, spec] of Object.entries((method['hierarchies'] ?? {}) as Json)) {
      const level = num(own(levels, column), 0);
      if (typeof spec === 'string') hierarchies[column] = { ...NO_HIERARCHY, kind: 'file', file: spec, level };
      else if ((spec as Json)['type'] === 'interval') hierarchies[column] = { ...NO_HIERARCHY, kind: 'interval', widths: ((spec as Json)['widths'] as number[]).join(', '), level };
      else hierarchies[column] = { ...NO_HIERARCHY, kind: 'masking', length: num((spec as Json)['length'], 5), level };
    }
    if (type === 'safe-k-anonymity') {
      const target = method['target'] as Json | undefined;
      return {
        ...state, method: type, hierarchies,
        kanon: {
          k: num(method['k'], 5), sampling: num(method['sampling'], 0.1),
          solve: method['k'] === 'auto' ? 'k' : method['sampling'] === 'auto' ? 'sampling' : 'none',
          useTarget: target !== undefined, targetEpsilon: num(target?.['epsilon'], 1), targetDelta: num(target?.['delta'], 1e-6),
          search: method['levels'] === 'search', searchEpsilon: num(method['searchEpsilon'], 0.1),
          searchLossWeight: num(method['searchLossWeight'], 0.6), searchStrategy: method['searchStrategy'] === 'path' ? 'path' : 'lattice',
        },
      };
    }
    const model = (method['model'] ?? {}) as Json;
    return {
      ...state, method: type, hierarchies,
      partition: { parts: num(method['parts'], 1), model: (model['type'] as WizardState['partition']['model']) ?? 'k-anonymity', k: num(model['k'], 5), l: num(model['l'], 2), t: num(model['t'], 0.2) },
    };
  }
  if (type === 'beta-privacy') {
    const beta = (method['beta'] ?? {}) as Json;
    const coefficient = beta['coefficient'] !== undefined;
    return {
      ...state,
      method: type,
      beta: {
        mode: coefficient ? 'coefficient' : 'values',
        coefficient: num(Number(beta['coefficient']), 8),
        defaultBeta: String(beta['default'] ?? '0.3'),
        overrides: named(Object.entries((beta['values'] ?? {}) as Json).map(([k, v]): [string, string] => [k, String(v)])),
        algorithm: (method['algorithm'] as WizardState['beta']['algorithm']) ?? 'multi-size',
        maxBucket: num(method['maxBucket'], 50),
        fakeValues: num(method['fakeValues'], 0),
      },
    };
  }
  return { ...state, method: 'reconstruction-privacy', rp: { retention: num(method['retention'], 0.5), epsilon: num(method['epsilon'], 0.5), delta: num(method['delta'], 0.3), bound: method['bound'] === 'full' ? 'full' : 'simplified', strict: method['strict'] !== false } };
}
