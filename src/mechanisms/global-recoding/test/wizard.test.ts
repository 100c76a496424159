import { describe, expect, it } from 'vitest';
import { named } from '../../../common/job/names.js';
import type { HierarchySpec } from '../../../common/recoding/hierarchy-spec.js';
import { globalRecodingBrowser } from '../browser/wizard.js';
import { globalRecoding, schema } from '../definition.js';

const recoding = { recoding: { hierarchies: named<HierarchySpec>(), levels: named<number>() } };
const roundTrip = (models: unknown[]) => {
  const method = schema.parse({ type: 'global-recoding', models, suppressionLimit: 0.05 });
  return schema.parse(globalRecodingBrowser.toMethod(globalRecodingBrowser.fromMethod(method), recoding)).models;
};

describe('the wizard form of global recoding', () => {
  it('keeps an opened job\'s models as written: one it edits, k beside it, the rest untouched', () => {
    const l = { type: 'l-diversity', l: 3, variant: 'distinct' };
    const k = { type: 'k-anonymity', k: 5 };
    const t = { type: 't-closeness', t: 0.2, distance: 'equal' };
    expect(roundTrip([l, k])).toEqual([l, k]);
    expect(roundTrip([k, l])).toEqual([k, l]);
    expect(roundTrip([l, t, k])).toEqual([l, t, k]);
    expect(globalRecodingBrowser.fromMethod(schema.parse({ type: 'global-recoding', models: [l, k] })).alsoK).toBe(true);
  });

  it('adds k-anonymity beside the chosen model when asked, and not beside k-anonymity itself', () => {
    const draft = globalRecodingBrowser.fromMethod(schema.parse({ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 4 }] }));
    expect(schema.parse(globalRecodingBrowser.toMethod({ ...draft, alsoK: true }, recoding)).models).toEqual([{ type: 'k-anonymity', k: 4 }]);
    const paired = schema.parse(globalRecodingBrowser.toMethod({ ...draft, model: 'average-risk', risk: 0.1, alsoK: true }, recoding));
    expect(paired.models).toEqual([{ type: 'average-risk', risk: 0.1 }, { type: 'k-anonymity', k: 4 }]);
    expect(paired.suppressionLimit).toBe(0);
  });

  it('keeps local suppression, its importance list and a journalist population through the form', () => {
    const method = schema.parse({
      type: 'global-recoding',
      models: [{ type: 'maximum-risk', risk: 0.1, attacker: 'journalist', populationSize: 300000 }],
      localSuppression: { k: 3, importance: [{ column: 'age', weight: 3 }] },
    });
    const draft = globalRecodingBrowser.fromMethod(method);
    expect(draft).toMatchObject({ localSuppression: true, lsK: 3, attacker: 'journalist', populationKind: 'size', populationSize: 300000 });
    const back = schema.parse(globalRecodingBrowser.toMethod(draft, recoding));
    expect(back.models).toEqual(method.models);
    expect(back.localSuppression).toEqual({ k: 3, importance: [{ column: 'age', weight: 3 }] });
    // The sampling fraction instead of the size; prosecutor again drops the population.
    expect(schema.parse(globalRecodingBrowser.toMethod({ ...draft, populationKind: 'fraction', samplingFraction: 0.25 }, recoding)).models).toEqual([{ type: 'maximum-risk', risk: 0.1, attacker: 'journalist', samplingFraction: 0.25 }]);
    expect(schema.parse(globalRecodingBrowser.toMethod({ ...draft, attacker: 'prosecutor' }, recoding)).models).toEqual([{ type: 'maximum-risk', risk: 0.1 }]);
  });

  it('offers local suppression alone: no model, and k-anonymity beside it is not added', () => {
    const method = schema.parse({ type: 'global-recoding', models: [], localSuppression: { k: 4 } });
    const draft = globalRecodingBrowser.fromMethod(method);
    expect(draft.model).toBe('none');
    const back = schema.parse(globalRecodingBrowser.toMethod({ ...draft, alsoK: true }, recoding));
    expect(back.models).toEqual([]);
    expect(back.localSuppression).toEqual({ k: 4, importance: [] });
    // Without local suppression the method needs a model.
    const refined = schema.superRefine((m, ctx) => globalRecoding.refine!(m, ctx));
    expect(refined.safeParse(globalRecodingBrowser.toMethod({ ...draft, localSuppression: false }, recoding)).error?.issues[0]?.message).toMatch(/at least one privacy model/);
  });

  it('keeps an opened job\'s sensitive columns per model and the Loss\'s gsFactor and attribute weights, and drops the Loss settings with another measure', () => {
    const l = { type: 'l-diversity', l: 3, variant: 'distinct', attribute: 'occupation' };
    const t = { type: 't-closeness', t: 0.2, distance: 'equal', attribute: 'salary' };
    expect(roundTrip([l, t])).toEqual([l, t]);
    const method = schema.parse({ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 5 }], gsFactor: 0.3, attributeWeights: [{ column: 'age', weight: 1 }] });
    const draft = globalRecodingBrowser.fromMethod(method);
    const again = schema.parse(globalRecodingBrowser.toMethod(draft, recoding));
    expect(again.gsFactor).toBe(0.3);
    expect(again.attributeWeights).toEqual([{ column: 'age', weight: 1 }]);
    const entropy = schema.parse(globalRecodingBrowser.toMethod({ ...draft, measure: 'entropy' }, recoding));
    expect(entropy.gsFactor).toBeUndefined();
    expect(entropy.attributeWeights).toBeUndefined();
  });

  it('edits δ-presence with its research subset, and k-anonymity beside it', () => {
    const presence = { type: 'delta-presence', deltaMin: 0.05, deltaMax: 0.5, subset: 'in_study' };
    const k = { type: 'k-anonymity', k: 5 };
    expect(roundTrip([presence, k])).toEqual([presence, k]);
    const draft = globalRecodingBrowser.fromMethod(schema.parse({ type: 'global-recoding', models: [presence] }));
    expect(draft).toMatchObject({ model: 'delta-presence', deltaMin: 0.05, deltaMax: 0.5, subset: 'in_study' });
    expect(schema.parse(globalRecodingBrowser.toMethod({ ...draft, deltaMax: 0.25 }, recoding)).models).toEqual([{ ...presence, deltaMax: 0.25 }]);
  });
});
