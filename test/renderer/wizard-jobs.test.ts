/**
 * One schema everywhere: the wizard builds its jobs from the mechanisms' drafts
 * and checks them with the mechanisms' own zod schemas. Every job it lets
 * through must parse with the schema the CLI uses, and every example job
 * shipped in resources/ must come back unchanged from the wizard.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { exactValue } from '../../src/common/job/job-parts.js';
import { named } from '../../src/common/job/names.js';
import type { Drafts } from '../../src/mechanisms/browser-registry.js';
import { MECHANISM_TYPES, type MechanismType } from '../../src/mechanisms/definitions.js';
import { jobSchema } from '../../src/mechanisms/job-schema.js';
import type { HierarchyChoice } from '../../src/renderer/components/recoding.js';
import { buildJob, changedOnSave, stateFromJob } from '../../src/renderer/state/job.js';
import { parameterProblems } from '../../src/renderer/state/validation.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { SURVEY_FILE } from './survey-file.js';

const DEMO = join(import.meta.dirname, '../../resources/demo');

/** β written as 0.3 or "0.3" is the same β: compare the exact values. */
function normalizeBeta(job: ReturnType<typeof jobSchema.parse>): unknown {
  const m = job.method;
  if (m.type !== 'beta-privacy' || !('default' in m.beta)) return job;
  const exact = (v: string | number): string => {
    const r = exactValue(v);
    return `${r.num}/${r.den}`;
  };
  return { ...job, method: { ...m, beta: { default: exact(m.beta.default), values: Object.fromEntries(Object.entries(m.beta.values).map(([k, v]) => [k, exact(v)])) } } };
}

describe('the example jobs in resources/', () => {
  const jobs = readdirSync(DEMO).filter((f) => f.endsWith('.json'));
  it('are there to test', () => expect(jobs.length).toBeGreaterThanOrEqual(3));
  for (const name of jobs) {
    it(`${name} round-trips through the wizard`, () => {
      const original = JSON.parse(readFileSync(join(DEMO, name), 'utf8')) as unknown;
      const state = stateFromJob(original);
      const written = JSON.parse(JSON.stringify(buildJob(state))) as unknown;
      expect(normalizeBeta(jobSchema.parse(written))).toEqual(normalizeBeta(jobSchema.parse(original)));
    });
  }
});

describe('settings a form does not show', () => {
  const base = { version: 1, input: { path: 'people.csv' }, attributes: { diagnosis: 'sensitive' }, output: { dir: 'release' } };
  const jobs: Record<string, unknown>[] = [
    { ...base, method: { type: 'uniform-perturbation', retention: 0.4, domains: { diagnosis: ['flu', 'cold', 'HIV'] }, attack: { minGroupSize: 10, groups: 3 } } },
    { ...base, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, unprotectable: 'reject', domains: { diagnosis: ['flu', 'cold'] } } },
    { ...base, method: { type: 'beta-privacy', sensitive: 'diagnosis', beta: { coefficient: 4 }, minBucket: 3, fakeExclusions: { '30': { flu: ['HIV'] } } } },
    // The Run step's Parquet checkbox: the format survives, beside CSV or alone.
    { ...base, output: { dir: 'release', formats: ['csv', 'parquet'] }, method: { type: 'uniform-perturbation', retention: 0.5 } },
    { ...base, output: { dir: 'release', formats: ['parquet'] }, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3 } },
    // The review's thresholds, and acknowledgements with reasons the Risk step cannot show as one.
    { ...base, method: { type: 'uniform-perturbation', retention: 0.5, domains: { diagnosis: 'from-data' } }, review: { maxProsecutorRisk: 0.1, rareCount: 3, acknowledge: [{ check: 'prosecutor-risk', reason: 'a' }, { check: 'sample-uniques', reason: 'b' }] } },
  ];
  for (const job of jobs) {
    it(`survive opening and saving in the wizard: ${(job['method'] as { type: string }).type}`, () => {
      const state = stateFromJob(job);
      expect(jobSchema.parse(JSON.parse(JSON.stringify(buildJob(state))))).toEqual(jobSchema.parse(job));
      expect(changedOnSave(job, state)).toEqual([]);
    });
  }

  it('a domain in any of its forms survives opening and saving, for the sensitive column it belongs to', () => {
    for (const domain of ['from-data', 'value-labels', { hierarchy: 'h.csv' }, ['flu', 'cold']]) {
      for (const type of ['uniform-perturbation', 'reconstruction-privacy', 'beta-privacy']) {
        const job = { ...base, method: type === 'beta-privacy' ? { type, beta: { coefficient: 4 }, domains: { diagnosis: domain } } : { type, retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: domain } } };
        const state = stateFromJob(job);
        expect(jobSchema.parse(JSON.parse(JSON.stringify(buildJob(state))))).toEqual(jobSchema.parse(job));
        expect(changedOnSave(job, state)).toEqual([]);
      }
    }
  });

  it('a setting the wizard would rewrite is named before the job is saved', () => {
    const job = { ...base, method: { type: 'dp-counts', epsilon: 1, queries: [{ where: { sex: 'F' } }, { where: { sex: 'M' } }] } };
    expect(changedOnSave(job, stateFromJob(job))).toContain('method.queries');
  });
});

const COLUMNS = ['age', 'zip', 'sex', 'diagnosis', 'month'];
const file: OpenedFile = {
  ...SURVEY_FILE,
  columns: COLUMNS.map((name) => ({
    name,
    type: name === 'age' ? 'integer' : 'text',
    distinct: 3,
    missing: 0,
    top: [{ value: 'a', count: 50 }, { value: 'b', count: 30 }, { value: 'c', count: 20 }],
  })),
};

/** Numbers a person can type into a field: sensible ones, edge values, and junk. */
const typed = (sensible: fc.Arbitrary<number>) => fc.oneof({ weight: 4, arbitrary: sensible }, { weight: 1, arbitrary: fc.constantFrom(Number.NaN, -1, 0, 1, 1.5, 2, 1e6) });
const probability = typed(fc.double({ min: 0.01, max: 0.99, noNaN: true }));
const betaText = fc.constantFrom('0.3', '1/4', '0.5', '1', '0', 'abc', '', '2', '0.01');
const columnsOf = fc.subarray(COLUMNS);

/** What a person can type into a domain field: lists (good, too short, repeated, missing a value of the file) and the other forms. */
/** One text per column ('' is no decision), a valid decision three times in four, so drafts reach runnable settings often. */
const domainText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('a, b, c', 'a, b, c, d', 'from-data', 'value-labels', 'hierarchy: h.csv') },
  { weight: 1, arbitrary: fc.constantFrom('', 'a', 'a, a', 'x, y', 'hierarchy:') },
);
const domainTexts = fc
  .tuple(...COLUMNS.map(() => domainText))
  .map((texts) => named(COLUMNS.map((c, i): [string, string] => [c, texts[i]!])));

const DRAFTS: { readonly [T in MechanismType]: fc.Arbitrary<Partial<Drafts[T]>> } = {
  'reconstruction-privacy': fc.record({ retention: probability, epsilon: typed(fc.double({ min: 0.05, max: 1.2, noNaN: true })), delta: probability, bound: fc.constantFrom('simplified', 'full'), strict: fc.boolean(), domains: domainTexts }, { requiredKeys: [] }),
  'uniform-perturbation': fc.record({ mode: fc.constantFrom('retention', 'rho'), retention: probability, rho1: probability, rho2: probability, epsilon: typed(fc.double({ min: 0.05, max: 1.2, noNaN: true })), delta: probability, domains: domainTexts }, { requiredKeys: [] }),
  'beta-privacy': fc.record(
    { mode: fc.constantFrom('coefficient', 'values'), coefficient: typed(fc.integer({ min: 1, max: 20 })), defaultBeta: betaText, overrides: fc.dictionary(fc.constantFrom('a', 'b', 'c'), betaText).map((o) => named(Object.entries(o))), maxBucket: typed(fc.integer({ min: 1, max: 600 })), fakeValues: typed(fc.integer({ min: 0, max: 3 })), algorithm: fc.constantFrom('multi-size', 'two-size', 'anatomy'), domains: domainTexts },
    { requiredKeys: [] },
  ),
  'safe-k-anonymity': fc.record(
    { k: typed(fc.integer({ min: 2, max: 50 })), sampling: probability, solve: fc.constantFrom('none', 'k', 'sampling'), useTarget: fc.boolean(), targetEpsilon: typed(fc.double({ min: 0.1, max: 5, noNaN: true })), targetDelta: typed(fc.double({ min: 1e-9, max: 0.1, noNaN: true })), search: fc.boolean(), searchEpsilon: typed(fc.double({ min: 0.01, max: 2, noNaN: true })), searchLossWeight: probability, searchStrategy: fc.constantFrom('lattice', 'path') },
    { requiredKeys: [] },
  ),
  'partitioned-recoding': fc.record(
    {
      parts: typed(fc.integer({ min: 1, max: 10 })),
      model: fc.constantFrom('k-anonymity', 'l-diversity', 't-closeness'),
      k: typed(fc.integer({ min: 2, max: 20 })),
      l: typed(fc.integer({ min: 2, max: 5 })),
      t: probability,
      search: fc.boolean(),
      suppressionPercent: typed(fc.integer({ min: -5, max: 120 })),
      measure: fc.constantFrom('loss', 'discernibility', 'aecs', 'entropy', 'precision'),
    },
    { requiredKeys: [] },
  ),
  'global-recoding': fc.record(
    {
      model: fc.constantFrom('k-anonymity', 'l-diversity', 't-closeness', 'maximum-risk', 'average-risk', 'none'),
      k: typed(fc.integer({ min: 2, max: 20 })),
      l: typed(fc.integer({ min: 2, max: 5 })),
      variant: fc.constantFrom('distinct', 'entropy', 'recursive'),
      c: typed(fc.double({ min: 0.5, max: 5, noNaN: true })),
      t: probability,
      distance: fc.constantFrom('equal', 'ordered', 'hierarchical'),
      risk: probability,
      suppressionPercent: typed(fc.integer({ min: 0, max: 100 })),
      measure: fc.constantFrom('loss', 'discernibility', 'aecs', 'entropy', 'precision'),
      alsoK: fc.boolean(),
      attacker: fc.constantFrom('prosecutor', 'journalist'),
      populationKind: fc.constantFrom('size', 'fraction'),
      populationSize: typed(fc.integer({ min: 0, max: 10_000_000 })),
      samplingFraction: probability,
      localSuppression: fc.boolean(),
      lsK: typed(fc.integer({ min: 0, max: 20 })),
      lsImportance: fc.array(fc.record({ column: fc.constantFrom(...COLUMNS), weight: typed(fc.double({ min: 0, max: 5, noNaN: true })) }), { maxLength: 3 }),
    },
    { requiredKeys: [] },
  ),
  microaggregation: fc.record({ columns: columnsOf, k: typed(fc.integer({ min: 2, max: 20 })), aggregation: fc.constantFrom('mean', 'median'), decimals: typed(fc.integer({ min: 0, max: 10 })) }, { requiredKeys: [] }),
  'dp-counts': fc.record(
    {
      epsilon: typed(fc.double({ min: 0.1, max: 5, noNaN: true })),
      columns: columnsOf,
      noise: fc.constantFrom('laplace', 'generalized-laplace'),
      correlation: fc.constantFrom('none', 'ar1', 'groupBy'),
      rho: typed(fc.double({ min: -0.9, max: 0.9, noNaN: true })),
      groupBy: fc.constantFrom('', ...COLUMNS),
      seriesBy: fc.constantFrom('', ...COLUMNS),
      parts: typed(fc.integer({ min: 1, max: 4 })),
      domains: domainTexts,
    },
    { requiredKeys: [] },
  ),
};

const hierarchy: fc.Arbitrary<Partial<HierarchyChoice>> = fc.record(
  {
    kind: fc.constantFrom('none', 'file', 'interval', 'rounding', 'masking', 'date'),
    file: fc.constantFrom('', 'h.csv'),
    widths: fc.constantFrom('10, 20', '5', '10, 15', 'x', '1', ''),
    top: fc.constantFrom('', '', '90', '30', 'x', '1.5'),
    bottom: fc.constantFrom('', '', '18', '40', '-5'),
    bases: fc.constantFrom('5, 10, 100', '5', '10, 5', '5, 12', 'x', '0', ''),
    length: typed(fc.integer({ min: 1, max: 5 })),
    level: typed(fc.integer({ min: 0, max: 4 })),
  },
  { requiredKeys: [] },
);

const wizardState: fc.Arbitrary<WizardState> = fc
  .record({
    method: fc.constantFrom(...MECHANISM_TYPES),
    roles: fc.tuple(...COLUMNS.map(() => fc.constantFrom('identifier', 'quasi', 'sensitive', 'insensitive') as fc.Arbitrary<'identifier' | 'quasi' | 'sensitive' | 'insensitive'>)),
    hierarchies: fc.dictionary(fc.constantFrom(...COLUMNS), hierarchy),
  })
  .chain(({ method, roles, hierarchies }) =>
    (DRAFTS[method] as fc.Arbitrary<Partial<Drafts[MechanismType]>>).map((patch) => {
      let state = reducer(initialState, { type: 'opened', file });
      state = reducer(state, { type: 'setMethod', method });
      state = reducer(state, { type: 'setRoles', roles: named(COLUMNS.map((c, i): [string, (typeof roles)[number]] => [c, roles[i]!])) });
      state = reducer(state, { type: 'patchDraft', method, patch } as Parameters<typeof reducer>[1]);
      for (const [column, h] of Object.entries(hierarchies)) state = reducer(state, { type: 'setHierarchy', column, patch: h });
      return state;
    }),
  );

describe('the jobs the wizard builds', () => {
  it('parse with the job schema whenever the wizard shows no problem (so "Next: Run" is never enabled on a job the CLI refuses)', () => {
    let runnable = 0;
    fc.assert(
      fc.property(wizardState, (state) => {
        const problems = parameterProblems(state, file);
        const parsed = jobSchema.safeParse(JSON.parse(JSON.stringify(buildJob(state))));
        if (Object.keys(problems).length === 0) {
          runnable++;
          if (!parsed.success) throw new Error(`the wizard showed no problem, but the schema says: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
        }
      }),
      { numRuns: 600, seed: 20261124 },
    );
    // The property says something only if the generator reaches runnable settings often enough.
    expect(runnable).toBeGreaterThan(60);
  });

  it('show every schema problem next to a field, in plain words (no zod jargon)', () => {
    fc.assert(
      fc.property(wizardState, (state) => {
        for (const message of Object.values(parameterProblems(state, file))) {
          expect(message).not.toMatch(/Expected|received|Invalid input|ZodError|undefined|NaN/);
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
