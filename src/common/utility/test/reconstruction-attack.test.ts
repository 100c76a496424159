import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupingOf } from '../../table/micro-groups.js';
import { reconstructFrequency } from '../../randomized-response/perturbation/estimate.js';
import { attackGroups } from '../reconstruction-attack.js';

describe('the reconstruction attack on target groups', () => {
  it('counts each target group’s published rows and hits as a row-by-row count does (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 60 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 120 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 5 }),
        (groupCount, rawGroups, rawRelease, rawTargets) => {
          const m = 4;
          const groupOfRow = Uint32Array.from(rawGroups, (g) => g % groupCount);
          const grouping = groupingOf(groupOfRow, groupCount);
          const release = { sourceRow: Uint32Array.from(rawRelease, ([r]) => r % groupOfRow.length), sensitive: [Uint32Array.from(rawRelease, ([, v]) => v % m)] };
          const targets = rawTargets.map(([g, v]) => ({ group: g % groupCount, value: v % m }));
          const got = attackGroups(grouping, release, 0, targets, 0.5, m);
          targets.forEach((t, i) => {
            // A group named twice is counted for its last naming only (as the attack keeps one slot per group).
            const counted = targets.findLastIndex((u) => u.group === t.group) === i;
            let size = 0;
            let hits = 0;
            release.sourceRow.forEach((r, k) => {
              if (groupOfRow[r] !== t.group) return;
              size++;
              if (release.sensitive[0]![k] === t.value) hits++;
            });
            if (!counted) size = hits = 0;
            expect(got[i]!.publishedRows).toBe(size);
            if (size === 0) expect(got[i]!.estimate).toBeNaN();
            else expect(got[i]!.estimate).toBe(reconstructFrequency(hits, size, 0.5, m));
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});
