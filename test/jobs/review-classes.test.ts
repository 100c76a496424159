import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupRows } from '../../src/common/table/micro-groups.js';
import { keepTupleIds, tupleIdsThrough } from '../../src/common/table/known-tuple-ids.js';
import { tableFromRows, type Table } from '../../src/common/table/table.js';
import { tupleIds } from '../../src/common/table/tuple-ids.js';
import { compactReleaseTable, type ReleaseColumn, type ReleaseTable } from '../../src/io/output/release-table.js';
import { quasiClasses } from '../../src/jobs/review/review-release.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SeededTestRandomSource } from '../../src/common/random/source.js';
import { readTable } from '../../src/io/input/read-table.js';
import { parseJob } from '../../src/jobs/load-job.js';
import type { MethodContext } from '../../src/jobs/method-kit/method-context.js';
import type { NodeMechanism } from '../../src/jobs/method-kit/node-mechanism.js';
import { prepareInput } from '../../src/jobs/prepare-input.js';
import { nodeMechanismOf } from '../../src/mechanisms/node-registry.js';

/**
 * The review's classes of a release that shows input rows through one row index start from the
 * method's micro groups of the same columns (known-tuple-ids.ts). They must be exactly the ids
 * tupleIds gives on the released values: the risk profile and the reports read them by number.
 */

const VALUES = ['a', 'b', 'c', 'd', ''];

/** The micro groups of these input columns, kept as a run's analysis keeps them for the review (utility-helper.ts). */
function grouped(columns: Table['columns'], rowCount: number): void {
  const grouping = groupRows(columns, rowCount);
  keepTupleIds(columns.map((c) => c.codes), grouping.groupOfRow, grouping.groupCount);
}

/** Classes counted from the released cells themselves, as verify counts them from the CSV. */
function fromCells(table: ReleaseTable, names: readonly string[]): { ids: Uint32Array; count: number } {
  const columns = names.map((name) => {
    const c = table.columns.find((col) => col.name === name)!;
    const cells = Array.from({ length: table.rowCount }, (_, r) => [c.dictionary[c.codes[c.via ? c.via[r]! : r]!]!]);
    return tableFromRows([name], cells).columns[0]!;
  });
  return tupleIds(columns.map((c) => ({ codes: c.codes, cardinality: c.dictionary.length })), null, table.rowCount);
}

function releaseOf(input: Table, via: Uint32Array, sensitive: Uint32Array): ReleaseTable {
  const columns: ReleaseColumn[] = input.columns.map((c) => ({ name: c.name, dictionary: c.dictionary, codes: c.codes, via, numeric: false }));
  columns.push({ name: 's', dictionary: ['x', 'y'], codes: sensitive, via: null, numeric: false });
  return { rowCount: via.length, columns };
}

const arbitraryInput = fc.record({
  width: fc.integer({ min: 1, max: 4 }),
  rows: fc.array(fc.array(fc.integer({ min: 0, max: VALUES.length - 1 }), { minLength: 4, maxLength: 4 }), { minLength: 1, maxLength: 120 }),
  picks: fc.array(fc.nat(), { maxLength: 150 }),
});

describe('the review’s classes through a row index', () => {
  it('equal the classes of the released values, numbered by first released row, after compaction (property)', () => {
    fc.assert(
      fc.property(arbitraryInput, fc.boolean(), ({ width, rows, picks }, permutation) => {
        const header = Array.from({ length: width }, (_, j) => `q${j}`);
        const input = tableFromRows(header, rows.map((r) => r.slice(0, width).map((v) => VALUES[v]!)));
        grouped(input.columns, input.rowCount);
        // A shuffled release of every row, or any rows (some twice, some not at all).
        const via = permutation
          ? Uint32Array.from(Array.from({ length: input.rowCount }, (_, r) => r).sort((a, b) => ((picks[a % Math.max(1, picks.length)] ?? a) % 7) - ((picks[b % Math.max(1, picks.length)] ?? b) % 7)))
          : Uint32Array.from(picks, (p) => p % input.rowCount);
        const table = compactReleaseTable(releaseOf(input, via, Uint32Array.from(via, (_, r) => r % 2)));
        const roles = new Map<string, string>([...header.map((h) => [h, 'quasi'] as const), ['s', 'sensitive']]);
        const classes = quasiClasses(table, roles);
        const expected = fromCells(table, header);
        expect(classes.count).toBe(expected.count);
        expect([...classes.ids]).toEqual([...expected.ids]);
        // The method's ids were read (and forgotten), not counted again: the path this test is about.
        if (via.length > 0) expect(tupleIdsThrough(input.columns.map((c) => c.codes), via, via.length)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('are counted from the released values when the method grouped other columns, or columns read through two indexes', () => {
    const input = tableFromRows(['q0', 'q1', 'q2'], [['a', 'b', 'c'], ['a', 'b', 'd'], ['a', 'c', 'c'], ['b', 'b', 'c'], ['a', 'b', 'c']]);
    // Micro groups of q0 and q1 only: they are not the classes of q0, q1 and q2.
    grouped(input.columns.slice(0, 2), input.rowCount);
    const via = Uint32Array.of(4, 1, 0, 3, 2);
    const roles = new Map([['q0', 'quasi'], ['q1', 'quasi'], ['q2', 'quasi'], ['s', 'sensitive']]);
    const table = compactReleaseTable(releaseOf(input, via, new Uint32Array(5)));
    expect([...quasiClasses(table, roles).ids]).toEqual([0, 1, 0, 2, 3]);
    // Every column grouped, but one column read through another index with the same rows.
    grouped(input.columns, input.rowCount);
    const other = Uint32Array.from(via);
    const mixed: ReleaseTable = { rowCount: 5, columns: releaseOf(input, via, new Uint32Array(5)).columns.map((c) => (c.name === 'q2' ? { ...c, via: other } : c)) };
    expect([...quasiClasses(compactReleaseTable(mixed), roles).ids]).toEqual([0, 1, 0, 2, 3]);
  });

  it('read kept ids only for the very arrays they were counted from', () => {
    const codes = [Uint32Array.of(0, 1, 1, 0), Uint32Array.of(2, 2, 3, 2)];
    keepTupleIds(codes, Uint32Array.of(0, 1, 2, 0), 3);
    expect(tupleIdsThrough([codes[0]!, Uint32Array.from(codes[1]!)], Uint32Array.of(3, 2), 2)).toBeUndefined();
    expect(tupleIdsThrough([codes[0]!], Uint32Array.of(3, 2), 2)).toBeUndefined();
    // In any order of the columns; numbered by first row read.
    expect(tupleIdsThrough([codes[1]!, codes[0]!], Uint32Array.of(2, 3, 0, 1, 2), 5)).toEqual({ ids: Uint32Array.of(0, 1, 1, 2, 0), count: 3 });
    // Kept ids of arrays of another length than the ids are not kept at all.
    const short = Uint32Array.of(0, 1);
    keepTupleIds([short], Uint32Array.of(0, 1, 2), 3);
    expect(tupleIdsThrough([short], Uint32Array.of(0), 1)).toBeUndefined();
  });

  it('are kept by a run of a randomized method only, and only where the quasi-identifiers are the micro groups\' columns', () => {
    const dir = mkdtempSync(join(tmpdir(), 'custos-kept-ids-'));
    const input = join(dir, 'people.csv');
    writeFileSync(input, ['age,sex,region,diagnosis', ...Array.from({ length: 400 }, (_, i) => `${20 + (i % 7)},${i % 3 ? 'F' : 'M'},r${i % 5},d${i % 4}`)].join('\n') + '\n');
    const keptAfter = (mode: 'run' | 'assess', attributes: Record<string, string>): boolean => {
      const loaded = parseJob({ version: 1, input: { path: input }, attributes, method: { type: 'reconstruction-privacy', retention: 0.5, epsilon: 0.5, delta: 0.3, domains: { diagnosis: 'from-data' } }, output: { dir: 'out', formats: ['csv'] } }, dir);
      const imported = prepareInput(loaded.job, readTable(input, { missing: [''], onBadRow: 'error' }));
      const mechanism = nodeMechanismOf(loaded.job.method.type) as NodeMechanism<typeof loaded.job.method>;
      const ctx: MethodContext = { random: new SeededTestRandomSource(3), mode, baseDir: dir, progress: () => undefined, measureUtility: false };
      mechanism.run(loaded.job, imported, ctx);
      const nonSensitive = imported.table.columns.filter((c) => attributes[c.name] !== 'sensitive').map((c) => c.codes);
      return tupleIdsThrough(nonSensitive, Uint32Array.of(0, 1, 2), 3) !== undefined;
    };
    expect(keptAfter('run', { diagnosis: 'sensitive' })).toBe(true);
    expect(keptAfter('assess', { diagnosis: 'sensitive' })).toBe(false);
    expect(keptAfter('run', { diagnosis: 'sensitive', region: 'insensitive' })).toBe(false);
  });
});
