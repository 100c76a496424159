import { describe, expect, it } from 'vitest';
import type { AnyMechanismDefinition } from '../../src/common/mechanism.js';
import { definitionOf, MECHANISM_DEFINITIONS, MECHANISM_TYPES, type MechanismType } from '../../src/mechanisms/definitions.js';
import {
  adviseMethods,
  answerGoal,
  ATTACKER_OPTIONS,
  misfit,
  PROTECT_OPTIONS,
  RELEASE_OPTIONS,
  selectable,
  type GoalAdvice,
  type GoalAnswers,
  type Recommended,
} from '../../src/renderer/state/method-goal.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';

const COMBINATIONS: Required<GoalAnswers>[] = PROTECT_OPTIONS.flatMap((p) => ATTACKER_OPTIONS.flatMap((a) => RELEASE_OPTIONS.map((r) => ({ protect: p.value, attacker: a.value, release: r.value }))));

const types = (list: readonly Recommended[] | undefined): MechanismType[] => (list ?? []).map((r) => r.type);

/**
 * Why a recommended method's guarantee does not fit the answers, written from the metadata here and
 * not from the module's rules: a second reading of what each answer demands.
 */
function unfit(type: MechanismType, as: 'method' | 'identity step' | 'attribute step', answers: Required<GoalAnswers>): string | undefined {
  const { metadata: m, compare, chain } = definitionOf(type);
  const g = m.recommendation.guards;
  if (answers.release === 'records' && !compare.releasesRecords) return 'a release of counts for a record-level release';
  if (answers.release === 'tables' && compare.releasesRecords) return 'records where tables of counts are enough';
  if (answers.attacker === 'anything' && !m.differentiallyPrivate) return 'not differentially private, against an attacker who may know anything';
  if (as === 'identity step') return chain.role === 'identity' && g === 'identity' && answers.protect === 'both' ? undefined : 'not an identity step of a chain';
  if (as === 'attribute step') return chain.role === 'attribute' && g === 'attribute' && answers.protect === 'both' ? undefined : 'not an attribute step of a chain';
  if (answers.protect === 'counts' && g !== 'counts') return 'records, where only counts are published';
  if (answers.protect === 'identity' && g === 'attribute') return 'an attribute-only method where identity must be protected';
  if (answers.protect === 'attribute' && g === 'identity' && !m.differentiallyPrivate) return 'an identity-only method where the sensitive value must be protected';
  if (answers.protect === 'both' && g !== 'counts' && !m.differentiallyPrivate) return 'one kind of protection alone, where both are needed';
  return undefined;
}

function recommendedOf(advice: GoalAdvice): (readonly [MechanismType, 'method' | 'identity step' | 'attribute step'])[] {
  if (advice.kind !== 'advice') return [];
  return [...types(advice.methods).map((t) => [t, 'method'] as const), ...types(advice.chain?.identity).map((t) => [t, 'identity step'] as const), ...types(advice.chain?.attribute).map((t) => [t, 'attribute step'] as const)];
}

describe('the Method step’s recommendations', () => {
  it('every answer combination recommends only methods whose guarantee fits, and at least one unless the answers contradict', () => {
    expect(COMBINATIONS).toHaveLength(32);
    for (const answers of COMBINATIONS) {
      const label = JSON.stringify(answers);
      const advice = adviseMethods(answers);
      if (answers.protect === 'counts' && answers.release === 'records') {
        expect(advice, label).toMatchObject({ kind: 'none', why: expect.stringMatching(/record-level/) });
        continue;
      }
      expect(advice.kind, label).toBe('advice');
      const recommended = recommendedOf(advice);
      expect(recommended.length, label).toBeGreaterThan(0);
      for (const [type, as] of recommended) expect(unfit(type, as, answers), `${label}: ${type} as ${as}`).toBeUndefined();
      if (advice.kind !== 'advice') continue;
      // Selected: the chain's identity step when there is a chain, else the first method.
      expect(advice.preselect, label).toBe(advice.chain ? advice.chain.identity[0]!.type : advice.methods[0]!.type);
      // A method the step would not keep selected is said not to fit, with the reason; one it keeps fits.
      for (const type of MECHANISM_TYPES) {
        const keeps = selectable(advice).includes(type);
        expect(misfit(definitionOf(type), answers) === undefined, `${label}: ${type}`).toBe(keeps);
      }
      // No method twice, and every recommendation with its reason from the metadata.
      expect(new Set(recommended.map(([t]) => t)).size, label).toBe(recommended.length);
      for (const r of [...advice.methods, ...(advice.chain?.identity ?? []), ...(advice.chain?.attribute ?? [])]) expect(r.reason).toBe(definitionOf(r.type).metadata.recommendation.reason);
    }
  });

  it('the usual answers get the usual methods, the closest fit first', () => {
    const methods = (a: Required<GoalAnswers>): MechanismType[] => {
      const advice = adviseMethods(a);
      return advice.kind === 'advice' ? types(advice.methods) : [];
    };
    // Identity: global recoding first (the general choice), the particular ones after, the DP one last (it assumes more and costs more).
    expect(methods({ protect: 'identity', attacker: 'membership', release: 'records' })).toEqual(['global-recoding', 'partitioned-recoding', 'microaggregation', 'safe-k-anonymity']);
    expect(methods({ protect: 'attribute', attacker: 'population', release: 'records' })).toEqual(['reconstruction-privacy', 'uniform-perturbation', 'beta-privacy', 'safe-k-anonymity']);
    expect(methods({ protect: 'identity', attacker: 'anything', release: 'records' })).toEqual(['safe-k-anonymity']);
    for (const protect of ['identity', 'attribute', 'both', 'counts'] as const) expect(methods({ protect, attacker: 'membership', release: 'tables' })).toEqual(['dp-counts']);
    // Both: the chain, identity step first (and selected), then the sensitive value's step; the DP method covers both alone.
    const both = adviseMethods({ protect: 'both', attacker: 'membership', release: 'records' });
    expect(both).toMatchObject({ kind: 'advice', preselect: 'global-recoding' });
    if (both.kind !== 'advice') return;
    expect(types(both.chain?.identity)).toEqual(['global-recoding', 'microaggregation']);
    expect(types(both.chain?.attribute)).toEqual(['uniform-perturbation', 'beta-privacy']);
    expect(types(both.methods)).toEqual(['safe-k-anonymity']);
    // Against an attacker who may know anything no chain holds: only differential privacy.
    const strongest = adviseMethods({ protect: 'both', attacker: 'anything', release: 'records' });
    expect(strongest).toMatchObject({ kind: 'advice', preselect: 'safe-k-anonymity' });
    expect(strongest.kind === 'advice' ? strongest.chain : 'no advice').toBeUndefined();
  });

  it('waits for every answer, and reads "only counts" as answering the last question', () => {
    expect(adviseMethods({})).toEqual({ kind: 'unanswered' });
    expect(adviseMethods({ protect: 'identity', attacker: 'membership' })).toEqual({ kind: 'unanswered' });
    expect(answerGoal({ attacker: 'membership' }, { protect: 'counts' })).toEqual({ attacker: 'membership', protect: 'counts', release: 'tables' });
    expect(answerGoal({ release: 'records' }, { protect: 'identity' })).toEqual({ release: 'records', protect: 'identity' });
    // Said plainly even before the attacker is answered.
    expect(adviseMethods({ protect: 'counts', release: 'records' }).kind).toBe('none');
  });

  it('notes what the answers imply beyond the method: identity still measured, the population, the strongest attacker', () => {
    const notes = (a: Required<GoalAnswers>): string => {
      const advice = adviseMethods(a);
      return advice.kind === 'advice' ? advice.notes.join(' ') : '';
    };
    expect(notes({ protect: 'attribute', attacker: 'membership', release: 'records' })).toMatch(/publishes the quasi-identifiers .* as collected/);
    expect(notes({ protect: 'identity', attacker: 'population', release: 'records' })).toMatch(/sampling fraction/);
    expect(notes({ protect: 'identity', attacker: 'release-only', release: 'records' })).toMatch(/rare combination/);
    expect(notes({ protect: 'identity', attacker: 'anything', release: 'records' })).toMatch(/Only a differentially private method/);
    expect(notes({ protect: 'identity', attacker: 'membership', release: 'records' })).toBe('');
  });

  it('comes from the mechanisms’ metadata: a new mechanism is recommended by what its definition says', () => {
    const base = definitionOf('global-recoding') as AnyMechanismDefinition;
    const fake: AnyMechanismDefinition = { ...base, metadata: { ...base.metadata, type: 'fake-tenth', title: 'Fake', recommendation: { guards: 'attribute', reason: 'Fake reason.' } }, chain: { role: 'attribute' } };
    const advice = adviseMethods({ protect: 'attribute', attacker: 'membership', release: 'records' }, [...MECHANISM_DEFINITIONS, fake]);
    expect(advice.kind === 'advice' && advice.methods.find((r) => (r.type as string) === 'fake-tenth')).toMatchObject({ reason: 'Fake reason.' });
    const identity = adviseMethods({ protect: 'identity', attacker: 'membership', release: 'records' }, [...MECHANISM_DEFINITIONS, fake]);
    expect(identity.kind === 'advice' && identity.methods.some((r) => (r.type as string) === 'fake-tenth')).toBe(false);
  });
});

describe('each mechanism’s recommendation metadata', () => {
  it('agrees with the rest of its metadata, and gives its reason in one sentence', () => {
    for (const { metadata: m, compare, chain } of MECHANISM_DEFINITIONS) {
      const g = m.recommendation.guards;
      expect(g === 'counts', m.type).toBe(!compare.releasesRecords);
      if (g === 'attribute') expect(m.sensitiveRelease, m.type).toBe('protected');
      if (g === 'identity') expect(m.sensitiveRelease, m.type).toBe('as-collected');
      if (chain.role !== 'alone') expect(g, m.type).toBe(chain.role);
      expect(m.recommendation.reason, m.type).toMatch(/^[A-Z][^]*\.$/);
      expect(m.recommendation.reason, m.type).not.toMatch(/[.;] [A-Z]/);
    }
  });
});

describe('answering on the Method step', () => {
  const answer = (state: WizardState, a: GoalAnswers): WizardState => reducer(state, { type: 'answerGoal', answer: a });

  it('selects the first recommendation when the chosen method does not fit, and keeps one that does', () => {
    let state = answer(initialState, { protect: 'identity' });
    state = answer(state, { attacker: 'membership' });
    expect(state.method).toBe(initialState.method);
    state = answer(state, { release: 'records' });
    expect(state.goal).toEqual({ protect: 'identity', attacker: 'membership', release: 'records' });
    expect(state.method).toBe('global-recoding');
    const chosen = answer(reducer(state, { type: 'setMethod', method: 'microaggregation' }), { attacker: 'population' });
    expect(chosen.method).toBe('microaggregation');
  });

  it('for identity and the sensitive value selects the identity step, even over the second step', () => {
    const onBeta = reducer(initialState, { type: 'setMethod', method: 'beta-privacy' });
    const state = answer(onBeta, { protect: 'both', attacker: 'membership', release: 'records' });
    expect(state.method).toBe('global-recoding');
    expect(answer(state, { release: 'tables' }).method).toBe('dp-counts');
  });
});
