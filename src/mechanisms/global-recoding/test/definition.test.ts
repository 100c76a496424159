import { describe, expect, it } from 'vitest';
import { engineModel, globalRecoding, modelText, samplingFraction, schema } from '../definition.js';

const refined = schema.superRefine((m, ctx) => globalRecoding.refine!(m, ctx));
const messages = (method: unknown) => refined.safeParse(method).error?.issues.map((i) => i.message) ?? [];

describe('the global recoding job: journalist risk and local suppression', () => {
  it('needs the population for a journalist, and refuses it for a prosecutor', () => {
    expect(messages({ type: 'global-recoding', models: [{ type: 'maximum-risk', risk: 0.1, attacker: 'journalist' }] })).toEqual([expect.stringMatching(/needs the population/)]);
    expect(messages({ type: 'global-recoding', models: [{ type: 'maximum-risk', risk: 0.1, attacker: 'journalist', populationSize: 10, samplingFraction: 0.5 }] })).toEqual([expect.stringMatching(/one of them/)]);
    expect(messages({ type: 'global-recoding', models: [{ type: 'average-risk', risk: 0.1, populationSize: 10 }] })).toEqual([expect.stringMatching(/belong to the journalist/)]);
    expect(messages({ type: 'global-recoding', models: [{ type: 'maximum-risk', risk: 0.1, attacker: 'journalist', populationSize: 100 }, { type: 'average-risk', risk: 0.1, attacker: 'journalist', populationSize: 200 }] })).toEqual([expect.stringMatching(/different populations/)]);
    expect(messages({ type: 'global-recoding', models: [{ type: 'maximum-risk', risk: 0.1, attacker: 'journalist', samplingFraction: 0.5 }] })).toEqual([]);
  });

  it('gives the engine a journalist threshold on its bound 1/|class|, never the sampling fraction\'s estimate π/|class| (issue 30)', () => {
    const model = schema.parse({ type: 'global-recoding', models: [{ type: 'maximum-risk', risk: 0.05, attacker: 'journalist', populationSize: 4000 }] }).models[0]!;
    // 1,000 records of 4,000 people: π = 0.25. The estimate π/|class| would pass a class of 5 (0.05) and a sample
    // unique at π = 0.05; the bound the engine enforces needs classes of 20 (1/20 = 0.05) whatever the population.
    expect(samplingFraction([model], 1000)).toBe(0.25);
    expect(engineModel(model)).toEqual({ type: 'maximum-risk', risk: 0.05 });
    expect(modelText(model)).toBe('highest journalist risk ≤ 0.05 (on its upper bound 1/|class|; population 4000 for estimates only)');
    const fraction = schema.parse({ type: 'global-recoding', models: [{ type: 'average-risk', risk: 0.2, attacker: 'journalist', samplingFraction: 0.01 }] }).models[0]!;
    expect(engineModel(fraction)).toEqual({ type: 'average-risk', risk: 0.2 });
    expect(modelText(fraction)).toBe('average journalist risk ≤ 0.2 (on its upper bound 1/|class|; sampling fraction 0.01 for estimates only)');
    const prosecutor = schema.parse({ type: 'global-recoding', models: [{ type: 'average-risk', risk: 0.05 }] }).models[0]!;
    expect(engineModel(prosecutor)).toEqual({ type: 'average-risk', risk: 0.05 });
    expect(modelText(prosecutor)).toBe('average prosecutor risk ≤ 0.05');
    expect(samplingFraction([prosecutor], 1000)).toBeUndefined();
  });

  it('allows local suppression alone or with k-anonymity and the risk thresholds, not with ℓ-diversity or t-closeness', () => {
    expect(messages({ type: 'global-recoding', models: [] })).toEqual([expect.stringMatching(/at least one privacy model/)]);
    expect(messages({ type: 'global-recoding', models: [], localSuppression: { k: 3 } })).toEqual([]);
    expect(messages({ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 2 }], localSuppression: { k: 5, importance: [{ column: 'age', weight: 2 }] } })).toEqual([]);
    expect(messages({ type: 'global-recoding', models: [{ type: 'l-diversity', l: 2 }], localSuppression: { k: 5 } })).toEqual([expect.stringMatching(/k-anonymity and the risk thresholds only/)]);
    expect(messages({ type: 'global-recoding', models: [], localSuppression: { k: 5, importance: [{ column: 'age', weight: 2 }, { column: 'age', weight: 1 }] } })).toEqual([expect.stringMatching(/weighed twice/)]);
    // Importance is a list of entries, never an object keyed by column names.
    expect(refined.safeParse({ type: 'global-recoding', models: [], localSuppression: { k: 5, importance: { age: 2 } } }).success).toBe(false);
  });
});
