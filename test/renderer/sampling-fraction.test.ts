/**
 * The risk preview's sampling fraction is the job's review.samplingFraction: stated, replaced,
 * withdrawn, and a loaded job's population size replaced by it (one way of stating the population).
 */
import { describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { buildJob } from '../../src/renderer/state/job.js';
import { initialState, reducer } from '../../src/renderer/state/wizard-state.js';

const file = { path: '/data/people.csv', name: 'people.csv', rows: 10, format: 'csv', columns: ['age', 'sex'].map((name) => ({ name, type: 'text', distinct: 2, missing: 0, top: [] })) } as unknown as OpenedFile;

describe('the sampling fraction of the risk preview', () => {
  const opened = reducer(initialState, { type: 'opened', file });

  it('is written into the job as review.samplingFraction, and withdrawn', () => {
    const stated = reducer(opened, { type: 'setSamplingFraction', fraction: 0.01 });
    expect(buildJob(stated).review).toMatchObject({ samplingFraction: 0.01 });
    const withdrawn = reducer(stated, { type: 'setSamplingFraction' });
    expect(buildJob(withdrawn).review?.samplingFraction).toBeUndefined();
  });

  it('replaces a loaded job\'s population size and keeps its thresholds', () => {
    const loaded = { ...opened, reviewSettings: { populationSize: 5000, maxIndividualRisk: 0.1, acknowledge: [] } };
    const review = buildJob(reducer(loaded, { type: 'setSamplingFraction', fraction: 0.2 })).review;
    expect(review).toMatchObject({ samplingFraction: 0.2, maxIndividualRisk: 0.1 });
    expect(review?.populationSize).toBeUndefined();
  });
});
