import { describe, expect, it } from 'vitest';
import { named } from '../../../common/job/names.js';
import type { HierarchySpec } from '../../../common/recoding/hierarchy-spec.js';
import { globalRecodingBrowser } from '../browser/wizard.js';
import { schema } from '../definition.js';

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
});
