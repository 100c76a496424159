import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ageAt, ageRows, assign, categoryRows, codedRecords, dateRows, groupProblems, hierarchyCsv, proposedHierarchyPath, readMapping, removeGroup, renameGroup, treeOf, wholeNumbers, type GroupLevels } from '../hierarchy-builder.js';
import { tableHierarchy } from '../hierarchy.js';
import { hierarchySpec } from '../hierarchy-spec.js';
import { readHierarchyRows } from '../../../io/input/hierarchy-reader.js';

const towns = ['Oslo', 'Bærum', 'Bergen', 'Malmö', 'Lund'];

function regions(): GroupLevels {
  let levels: GroupLevels = [];
  levels = assign(levels, 0, 'Østlandet', ['Oslo', 'Bærum']);
  levels = assign(levels, 0, 'Vestlandet', ['Bergen']);
  levels = assign(levels, 0, 'Skåne', ['Malmö', 'Lund']);
  levels = assign(levels, 1, 'Norway', ['Østlandet', 'Vestlandet']);
  levels = assign(levels, 1, 'Sweden', ['Skåne']);
  return levels;
}

const dir = mkdtempSync(join(tmpdir(), 'custos-builder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('category groups', () => {
  it('builds value → region → country → * rows that the job reader reads back as written', () => {
    const built = categoryRows('town', towns, regions());
    expect(built.ok).toBe(true);
    if (!built.ok) return;
    expect(built.rows).toEqual([
      ['Oslo', 'Østlandet', 'Norway', '*'],
      ['Bærum', 'Østlandet', 'Norway', '*'],
      ['Bergen', 'Vestlandet', 'Norway', '*'],
      ['Malmö', 'Skåne', 'Sweden', '*'],
      ['Lund', 'Skåne', 'Sweden', '*'],
    ]);
    const file = join(dir, 'towns.csv');
    writeFileSync(file, hierarchyCsv(built.rows));
    expect(readHierarchyRows(file)).toEqual(built.rows);
    const h = tableHierarchy(readHierarchyRows(file));
    expect(h.generalize('Lund', 2)).toBe('Sweden');
    expect(h.coverage('Norway', 2)).toBe(3);
  });

  it('quotes fields holding separators or quotes so the file reads back as the same rows', () => {
    const rows = [
      ['a;b', 'x, "y"', '*'],
      ['c|d', 'tab\there', '*'],
      [' lead', 'z', '*'],
    ];
    const file = join(dir, 'quoted.csv');
    writeFileSync(file, hierarchyCsv(rows));
    expect(readHierarchyRows(file)).toEqual(rows);
  });

  it('moves values between groups of a level when they are assigned again', () => {
    let levels = assign([], 0, 'A', ['Oslo', 'Bergen']);
    levels = assign(levels, 0, 'B', ['Bergen']);
    expect(levels[0]).toEqual([
      { name: 'A', members: ['Oslo'] },
      { name: 'B', members: ['Bergen'] },
    ]);
  });

  it('names the values in no group, and the cause', () => {
    const levels = assign([], 0, 'North', ['Oslo']);
    const problems = groupProblems('town', towns, levels);
    expect(problems).toEqual([`4 values of “town” are in no group of level 1: “Bærum”, “Bergen”, “Malmö”, “Lund”; every value needs a group, or it has no path to the top`]);
    expect(categoryRows('town', towns, levels).ok).toBe(false);
  });

  it('names a value in two groups, a group named twice, an empty group, an unnamed group and one named "*"', () => {
    const levels: GroupLevels = [
      [
        { name: 'N', members: ['Oslo', 'Bærum', 'Bergen'] },
        { name: 'N', members: ['Oslo', 'Malmö', 'Lund'] },
        { name: '', members: [] },
        { name: '*', members: ['Nowhere'] },
      ],
    ];
    const problems = groupProblems('town', towns, levels).join('\n');
    expect(problems).toContain('a group of level 1 has no name');
    expect(problems).toContain('“*”, which is the top of every hierarchy');
    expect(problems).toContain('more than one group named “N”');
    expect(problems).toContain('“Oslo” is in 2 groups of level 1 (“N”, “N”)');
    expect(problems).toContain('holds nothing');
    expect(problems).toContain('1 value that “town” does not hold: “Nowhere”');
  });

  it('asks for every group of the level below to be placed in the level above', () => {
    const levels = assign(regions().slice(0, 1), 1, 'Norway', ['Østlandet']);
    expect(groupProblems('town', towns, levels)).toEqual([`2 groups of level 1 are in no group of level 2: “Vestlandet”, “Skåne”; every group needs a group, or it has no path to the top`]);
  });

  it('renames a group and the reference to it from the level above; removing it unassigns its members', () => {
    const renamed = renameGroup(regions(), 0, 'Skåne', 'Scania');
    expect(renamed[0]!.map((g) => g.name)).toContain('Scania');
    expect(renamed[1]!.find((g) => g.name === 'Sweden')!.members).toEqual(['Scania']);
    const removed = removeGroup(regions(), 0, 'Skåne');
    expect(removed[1]!.find((g) => g.name === 'Sweden')!.members).toEqual([]);
    expect(groupProblems('town', towns, removed).join('\n')).toContain('“Malmö”, “Lund”');
  });
});

describe('a pasted mapping', () => {
  it('reads tab-separated lines copied from a spreadsheet, with or without the "*" column', () => {
    const text = 'Oslo\tØstlandet\tNorway\nBærum\tØstlandet\tNorway\n\nBergen\tVestlandet\tNorway\nMalmö\tSkåne\tSweden\nLund\tSkåne\tSweden\n';
    const read = readMapping('town', text, towns);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(categoryRows('town', towns, read.levels)).toEqual(categoryRows('town', towns, regions()));
    const withTop = readMapping('town', text.replaceAll('\n', '\t*\n').replaceAll('\t*\n\t*\n', '\t*\n\n'), towns);
    expect(withTop.ok && withTop.levels.length).toBe(2);
  });

  it('names unknown values and repeated values with their lines', () => {
    const read = readMapping('town', 'Oslo;N\nOsloo;N\nOslo;S', towns);
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems.join('\n')).toContain('“Osloo” (line 2)');
    expect(read.problems.join('\n')).toContain('“Oslo” (lines 1 and 3)');
  });

  it('names a group put in two groups of the level above', () => {
    const read = readMapping('town', 'Oslo,East,Norway\nBærum,East,Sweden');
    expect(read.ok).toBe(false);
    if (read.ok) return;
    expect(read.problems).toEqual(['the group “East” is put in “Norway” on line 1 and in “Sweden” on line 2: a group belongs to one group of the level above']);
  });

  it('refuses a line without a group, and lines of another width', () => {
    expect(readMapping('town', 'Oslo\nBergen')).toEqual({ ok: false, problems: ['line 1 holds no group: write the value, then its group, separated by a tab, “;” or “,”'] });
    const uneven = readMapping('town', 'Oslo;A;B\nBergen;A');
    expect(!uneven.ok && uneven.problems[0]).toContain('line 2');
  });
});

describe('tree preview', () => {
  it('puts the top first and sums the records of each node', () => {
    const built = categoryRows('town', towns, regions());
    if (!built.ok) throw new Error('not built');
    const tree = treeOf(built.rows, new Map([['Oslo', 10], ['Bærum', 2], ['Bergen', 5], ['Malmö', 1], ['Lund', 4]]));
    expect(tree.label).toBe('*');
    expect(tree.records).toBe(22);
    expect(tree.children.map((c) => [c.label, c.records])).toEqual([
      ['Norway', 17],
      ['Sweden', 5],
    ]);
    expect(tree.children[0]!.children.map((c) => c.label)).toEqual(['Østlandet', 'Vestlandet']);
    expect(tree.children[0]!.children[0]!.children.map((c) => c.label)).toEqual(['Oslo', 'Bærum']);
  });

  it('gives the date hierarchy decade → year → month → day and names values that are no dates', () => {
    const { rows, notDates } = dateRows(['2021-03-14', '2021-03-02', '1999-12-31', '14.03.2021']);
    expect(notDates).toEqual(['14.03.2021']);
    expect(rows[0]).toEqual(['2021-03-14', '2021-03', '2021', '2020-2029', '*']);
    const tree = treeOf(rows);
    expect(tree.children.map((c) => c.label)).toEqual(['2020-2029', '1990-1999']);
    expect(tree.children[0]!.children[0]!.children[0]!.children.map((c) => c.label)).toEqual(['2021-03-14', '2021-03-02']);
  });
});

describe('age from a birth date', () => {
  it('counts full years at the reference date (a birthday not yet reached this year is not counted)', () => {
    expect(ageAt('1990-06-15', '2026-06-14')).toBe(35);
    expect(ageAt('1990-06-15', '2026-06-15')).toBe(36);
    expect(ageAt('2000-02-29', '2026-02-28')).toBe(25);
    expect(ageAt('2000-02-29', '2026-03-01')).toBe(26);
  });

  it('builds date → age → bands → * rows the job reader accepts', () => {
    const built = ageRows('born', ['1990-06-15', '1985-01-01', '2001-12-31'], '2026-01-01', [5, 10]);
    expect(built).toEqual({
      ok: true,
      rows: [
        ['1990-06-15', '35', '35-39', '30-39', '*'],
        ['1985-01-01', '41', '40-44', '40-49', '*'],
        ['2001-12-31', '24', '20-24', '20-29', '*'],
      ],
    });
  });

  it('names values that are no dates, dates after the reference, and bad bands or reference dates', () => {
    const bad = ageRows('born', ['1990-06-15', 'unknown', '2030-01-01'], '2026-01-01', [5, 10]);
    expect(!bad.ok && bad.problems.join('\n')).toContain('1 value of “born” is not read as dates: “unknown”');
    const later = ageRows('born', ['2030-01-01'], '2026-01-01', [5]);
    expect(!later.ok && later.problems[0]).toContain('after the reference date 2026-01-01: “2030-01-01”');
    const bands = ageRows('born', ['1990-06-15'], '2026-02-30', [5, 7]);
    expect(!bands.ok && bands.problems).toHaveLength(2);
  });
});

describe('top and bottom coding', () => {
  it('counts the records the codes change and keeps non-numbers apart', () => {
    expect(wholeNumbers(['3', '-2', '4.5', 'x'])).toEqual({ numbers: [3, -2], others: ['4.5', 'x'] });
    const counts = new Map([['10', 3], ['50', 1], ['90', 2], ['95', 1], ['NA', 4]]);
    expect(codedRecords(counts, 18, 90)).toEqual({ below: 3, above: 3 });
    expect(codedRecords(counts, undefined, undefined)).toEqual({ below: 0, above: 0 });
  });
});

it('proposes a file beside the input named after it and the column', () => {
  expect(proposedHierarchyPath('/data/register 2026.csv', 'municipality/name')).toBe('/data/register 2026-municipality-name-hierarchy.csv');
  expect(proposedHierarchyPath('C:\\data\\reg.xlsx', 'Kommune')).toBe('C:\\data\\reg-Kommune-hierarchy.csv');
  expect(hierarchySpec.safeParse(proposedHierarchyPath('/d/r.csv', 'x')).success).toBe(true);
});
