import { describe, expect, it } from 'vitest';
import { blockingChecks, DEFAULT_REVIEW, reviewChecks, reviewSettings, reviewVerdict, type IdentityFigures, type ReviewFigures } from '../release-review.js';

const identity = (prosecutorHighest: number, extra: Partial<IdentityFigures> = {}): IdentityFigures => ({
  file: 'release.csv', quasiIdentifiers: ['age', 'sex'], records: 100, classes: 20, sampleUniques: prosecutorHighest === 1 ? 3 : 0, sampleUniqueShare: prosecutorHighest === 1 ? 0.03 : 0, prosecutorHighest, prosecutorAverage: 0.2, ...extra,
});
const figures = (parts: Partial<ReviewFigures> = {}): ReviewFigures => ({ records: true, directIdentifiers: [], identity: [identity(0.1)], sensitive: [], ...parts });
const check = (checks: ReturnType<typeof reviewChecks>, name: string) => checks.find((c) => c.check === name);

describe('the review\'s thresholds and verdict', () => {
  it('defaults: no direct identifier, highest prosecutor risk ≤ 0.2 (classes of 5), rare sensitive values a warning', () => {
    expect(DEFAULT_REVIEW).toMatchObject({ directIdentifiers: 'fail', maxProsecutorRisk: 0.2, rareSensitive: 'warn', rareCount: 5, acknowledge: [] });
    expect(reviewVerdict(reviewChecks(figures({ identity: [identity(0.2)] }), DEFAULT_REVIEW))).toBe('passed');
    const over = reviewChecks(figures({ identity: [identity(0.25)] }), DEFAULT_REVIEW);
    expect(check(over, 'prosecutor-risk')).toMatchObject({ passed: false, severity: 'fail' });
    expect(check(over, 'prosecutor-risk')!.fix).toMatch(/at least 5 records/);
    expect(reviewVerdict(over)).toBe('failed');
  });

  it('a direct identifier fails, or warns when the job says so', () => {
    const found = figures({ directIdentifiers: [{ file: 'release.csv', column: 'comment', kind: 'free-text', reason: 'free text' }] });
    expect(reviewVerdict(reviewChecks(found, DEFAULT_REVIEW))).toBe('failed');
    const warned = reviewChecks(found, reviewSettings.parse({ directIdentifiers: 'warn' }));
    expect(check(warned, 'direct-identifiers')).toMatchObject({ passed: false, severity: 'warn' });
    expect(reviewVerdict(warned)).toBe('passed');
  });

  it('the worst released table decides, and the optional limits are checked only when given', () => {
    const two = figures({ identity: [identity(0.1), identity(0.5, { file: 'release-b.csv', prosecutorAverage: 0.3, sampleUniqueShare: 0.1 })] });
    const checks = reviewChecks(two, reviewSettings.parse({ maxProsecutorRisk: 0.6, maxAverageProsecutorRisk: 0.25, maxSampleUniqueShare: 0.2 }));
    expect(checks.map((c) => [c.check, c.passed])).toEqual([['direct-identifiers', true], ['prosecutor-risk', true], ['average-risk', false], ['sample-uniques', true], ['rare-sensitive', true]]);
    expect(check(checks, 'prosecutor-risk')!.finding).toMatch(/0\.5000 .* in release-b\.csv/);
  });

  it('rare or homogeneous sensitive values warn by default and fail when asked', () => {
    const rare = figures({ sensitive: [{ file: 'release.csv', column: 'diagnosis', rareValues: 2, rareRecords: 3, homogeneousRecords: 0 }] });
    expect(reviewVerdict(reviewChecks(rare, DEFAULT_REVIEW))).toBe('passed');
    expect(check(reviewChecks(rare, DEFAULT_REVIEW), 'rare-sensitive')).toMatchObject({ passed: false, severity: 'warn' });
    expect(reviewVerdict(reviewChecks(rare, reviewSettings.parse({ rareSensitive: 'fail' })))).toBe('failed');
  });

  it('acknowledged failures make the verdict "accepted" only when every failed check is acknowledged', () => {
    const bad = figures({ directIdentifiers: [{ file: 'release.csv', column: 'dob', kind: 'full-date', reason: 'dates' }], identity: [identity(1)] });
    const one = reviewChecks(bad, reviewSettings.parse({ acknowledge: [{ check: 'direct-identifiers', reason: 'contract' }] }));
    expect(reviewVerdict(one)).toBe('failed');
    expect(blockingChecks(one).map((c) => c.check)).toEqual(['prosecutor-risk']);
    const both = reviewChecks(bad, reviewSettings.parse({ acknowledge: [{ check: 'direct-identifiers', reason: 'contract' }, { check: 'prosecutor-risk', reason: 'contract' }] }));
    expect(reviewVerdict(both)).toBe('accepted');
  });

  it('the settings refuse what cannot be meant, naming the key', () => {
    expect(reviewSettings.safeParse({ maxProsecutorRisk: 0 }).success).toBe(false);
    expect(reviewSettings.safeParse({ acknowledge: [{ check: 'prosecutor-risk', reason: ' ' }] }).success).toBe(false);
    expect(reviewSettings.safeParse({ acknowledge: [{ check: 'everything', reason: 'x' }] }).success).toBe(false);
    const both = reviewSettings.safeParse({ populationSize: 1000, samplingFraction: 0.1 });
    expect(both.success || both.error.issues[0]!.path).toEqual(['samplingFraction']);
    const orphan = reviewSettings.safeParse({ maxPopulationUniqueShare: 0.01 });
    expect(orphan.success || orphan.error.issues[0]!.message).toMatch(/needs review\.populationSize/);
  });

  it('a release of counts has no identity or attribute check', () => {
    expect(reviewChecks(figures({ records: false, identity: [identity(1)] }), DEFAULT_REVIEW).map((c) => c.check)).toEqual(['direct-identifiers']);
  });
  it('the journalist (k-map) risk is judged when a population is given: against maxJournalistRisk, else the prosecutor limit; a limit without a population is refused', () => {
    const mapped = (highest: number) => figures({ identity: [identity(0.1, { population: { fraction: 0.01, model: 'Dankar', journalist: { k: 1 / highest, highest, average: highest / 2 } } })] });
    expect(check(reviewChecks(figures(), DEFAULT_REVIEW), 'journalist-risk')).toBeUndefined();
    expect(check(reviewChecks(mapped(0.2), DEFAULT_REVIEW), 'journalist-risk')).toMatchObject({ passed: true, severity: 'fail' });
    const over = reviewChecks(mapped(0.01), reviewSettings.parse({ populationSize: 1000, maxJournalistRisk: 0.005 }));
    expect(check(over, 'journalist-risk')).toMatchObject({ passed: false, finding: expect.stringMatching(/^highest journalist \(k-map\) risk 0\.0100 in release\.csv: the fewest people estimated to share a released record's quasi-identifiers are 100 .*limit 0\.005$/), fix: expect.stringMatching(/at least 200 people/) });
    expect(reviewVerdict(over)).toBe('failed');
    expect(reviewSettings.safeParse({ maxJournalistRisk: 0.01 }).error?.issues[0]).toMatchObject({ path: ['maxJournalistRisk'], message: 'review.maxJournalistRisk needs review.populationSize or review.samplingFraction' });
  });
});
