/**
 * The wizard's chain, "protect identity, then the sensitive value" (issue 34, item 3): the state that
 * chooses and clears it, the job it builds (both steps, each from its own draft, as custos init
 * writes a chain), the checks that accept it and the restore of a chain job into the wizard.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chainColumnProblems, chainJobSchema, type ChainJob } from '../../src/mechanisms/chain.js';
import { adviseMethods } from '../../src/renderer/state/method-goal.js';
import { buildCandidates, cannotRunBefore } from '../../src/renderer/state/compare-candidates.js';
import { buildJob, changedOnSave, JobFileError, stateFromJob } from '../../src/renderer/state/job.js';
import { CHAIN_KEY, parameterProblems } from '../../src/renderer/state/validation.js';
import { reducer } from '../../src/renderer/state/wizard-state.js';
import { chained, CSV, FILE } from './chain-state.js';

const CLI = resolve('dist/cli/custos.mjs');

/** What `custos init FILE --method global-recoding,beta-privacy` writes for the same file. */
function initJob(): Record<string, unknown> {
  const dir = mkdtempSync(join(tmpdir(), 'custos-chainwiz-'));
  writeFileSync(join(dir, 'survey.csv'), CSV);
  const { CUSTOS_TEST_RANDOMNESS: _seeded, ...env } = process.env;
  const init = spawnSync(process.execPath, [CLI, 'init', 'survey.csv', '--method', 'global-recoding,beta-privacy'], { cwd: dir, encoding: 'utf8', env });
  expect(init.status, init.stderr).toBe(0);
  return JSON.parse(init.stdout) as Record<string, unknown>;
}

const sortedKeys = (o: object): string[] => Object.keys(o).sort();

describe('the wizard state of a chain', () => {
  it('“Use these two steps” sets the chain, the identity step is the method; one method chosen clears it', () => {
    const state = chained();
    expect(state.chain).toEqual({ identity: 'global-recoding', attribute: 'beta-privacy' });
    expect(state.method).toBe('global-recoding');
    // The answers are the Method step's "both": its advice is the chain.
    const advice = adviseMethods(state.goal!);
    expect(advice.kind === 'advice' && advice.chain?.attribute.map((r) => r.type)).toContain('beta-privacy');
    const single = reducer(state, { type: 'setMethod', method: 'beta-privacy' });
    expect(single.chain).toBeUndefined();
    expect(single.method).toBe('beta-privacy');
    // The steps' drafts stay: choosing the chain again finds both forms as they were.
    expect(reducer(single, { type: 'chooseChain', chain: state.chain! }).drafts).toBe(state.drafts);
  });

  it('answers that recommend no chain any more (identity only) clear it; a compared candidate of one method clears it', () => {
    const state = chained();
    expect(reducer(state, { type: 'answerGoal', answer: { protect: 'identity' } }).chain).toBeUndefined();
    const used = reducer(state, { type: 'useCandidate', method: 'global-recoding', drafts: state.drafts, comparison: { id: 'c', chosen: 'x', candidates: 2 } });
    expect(used.chain).toBeUndefined();
    const kept = reducer(state, { type: 'useCandidate', method: 'global-recoding', chain: state.chain!, drafts: state.drafts, comparison: { id: 'c', chosen: 'x', candidates: 2 } });
    expect(kept.chain).toEqual(state.chain);
  });
});

describe('the job of a chain', () => {
  it('holds both steps from their own drafts, parses with the chain schema, and has the structure custos init --method global-recoding,beta-privacy gives', () => {
    const state = chained();
    expect(parameterProblems(state, FILE)).toEqual({});
    const built = JSON.parse(JSON.stringify(buildJob(state))) as { method: unknown };
    expect(Array.isArray(built.method)).toBe(true);
    const parsed = chainJobSchema.parse(built);
    expect(chainColumnProblems(parsed as ChainJob)).toEqual([]);
    const fromInit = chainJobSchema.parse(JSON.parse(JSON.stringify(initJob()), (key, value: unknown) => (key === '_help' ? undefined : value)));
    expect(parsed.method.map((m) => m.type)).toEqual(fromInit.method.map((m) => m.type));
    expect({ ...parsed.attributes }).toEqual({ ...fromInit.attributes });
    expect(sortedKeys(parsed)).toEqual(sortedKeys(fromInit));
    for (const i of [0, 1] as const) expect(sortedKeys(parsed.method[i])).toEqual(sortedKeys(fromInit.method[i]));
    // The identity step recodes the quasi-identifiers only: the sensitive column is the second step's.
    expect(Object.keys((parsed.method[0] as { hierarchies: object }).hierarchies)).toEqual(Object.keys((fromInit.method[0] as { hierarchies: object }).hierarchies));
    expect(parsed.method[0]).toMatchObject({ type: 'global-recoding', hierarchies: { age: { type: 'interval', widths: [5, 10, 20] } } });
    expect(parsed.method[1]).toMatchObject({ type: 'beta-privacy', domains: { diagnosis: ['asthma', 'cold', 'flu'] } });
  });

  it('a chain the CLI refuses blocks the wizard with the chain’s own reason (the identity step recodes the sensitive column)', () => {
    // t-closeness with a hierarchical distance recodes the sensitive column too: the second step would protect a recoded value.
    const state = reducer(chained(), { type: 'patchDraft', method: 'global-recoding', patch: { model: 't-closeness', distance: 'hierarchical' } as never });
    expect(parameterProblems(state, FILE)[CHAIN_KEY]).toMatch(/^method\[0\]\./);
  });

  it('the Compare step takes the current chain as one candidate that can run', () => {
    const [current] = buildCandidates(chained(), [], true);
    expect(current!.chain).toEqual({ identity: 'global-recoding', attribute: 'beta-privacy' });
    expect(current!.label).toMatch(/then/);
    expect(cannotRunBefore(current!)).toBeUndefined();
  });
});

describe('a chain job loaded into the wizard', () => {
  it('custos init’s chain comes back as the chain, each step in its own form, and saves as it was written', () => {
    const written = initJob();
    const state = stateFromJob(written);
    expect(state.chain).toEqual({ identity: 'global-recoding', attribute: 'beta-privacy' });
    expect(state.method).toBe('global-recoding');
    expect(Object.keys(state.hierarchies)).toEqual(['age']);
    const saved = chainJobSchema.parse(JSON.parse(JSON.stringify(buildJob(state))));
    const original = chainJobSchema.parse(JSON.parse(JSON.stringify(written), (key, value: unknown) => (key === '_help' ? undefined : value)));
    expect(saved.method).toEqual(original.method);
    expect(changedOnSave(written, state)).toEqual([]);
  });

  it('names a changed setting of a step by the step’s key', () => {
    const written = initJob();
    const state = reducer(stateFromJob(written), { type: 'patchDraft', method: 'beta-privacy', patch: { maxBucket: 400 } as never });
    expect(changedOnSave(written, state)).toEqual(['method[1].maxBucket']);
  });

  it('refuses steps that make no chain with the CLI’s reason, and a step’s bad field by its key', () => {
    const base = { version: 1, input: { path: 'x.csv' }, attributes: { diagnosis: 'sensitive' }, output: { dir: 'out' } };
    expect(() => stateFromJob({ ...base, method: [{ type: 'beta-privacy', beta: { coefficient: 2 } }, { type: 'global-recoding', models: [{ type: 'k-anonymity', k: 5 }] }] })).toThrow(/method\[0\]\.type: beta-privacy protects a sensitive attribute and comes first/);
    expect(() => stateFromJob({ ...base, method: [{ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 0 }] }, { type: 'beta-privacy', beta: { coefficient: 2 } }] })).toThrow(JobFileError);
    expect(() => stateFromJob({ ...base, method: [{ type: 'global-recoding', models: [{ type: 'k-anonymity', k: 0 }] }, { type: 'beta-privacy', beta: { coefficient: 2 } }] })).toThrow(/method\[0\]\.models\[0\]\.k/);
  });
});
