import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHierarchyRows } from '../../src/io/input/hierarchy-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-hierarchy-'));

function hierarchy(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/**
 * A hierarchy's problems are located by the line an editor shows: blank lines are skipped and a
 * quoted field may span lines, so the row number the rest of the program knows is not the line.
 */
describe('inconsistent hierarchy files', () => {
  it('a row of another depth is refused naming the file and its line', () => {
    const path = hierarchy('age.csv', '1;1-4;*\n\n2;1-4;*\n"3\n";1-4;*\n4;1-4\n');
    expect(() => readHierarchyRows(path)).toThrow('age.csv:6: this row of the hierarchy has 2 levels where the first (line 1) has 3');
  });

  it('a value listed twice is refused naming both lines', () => {
    const path = hierarchy('job.csv', 'a,x,*\n\n\nb,x,*\na,y,*\n');
    expect(() => readHierarchyRows(path)).toThrow('job.csv:5: the value "a" appears again in the hierarchy (first on line 1)');
  });

  it('a file of one column is refused naming the shape a hierarchy has, not read as one level', () => {
    expect(() => readHierarchyRows(hierarchy('list.csv', '\n34\n35\n36\n'))).toThrow(/^list\.csv:2: a hierarchy needs at least two columns: one row per value, the value then its generalizations/);
    // Any text file, e.g. notes: one column.
    expect(() => readHierarchyRows(hierarchy('notes.txt', 'Remember to check\nthe totals\n'))).toThrow(/^notes\.txt:1: a hierarchy needs at least two columns/);
  });

  it('a consistent hierarchy is read, blank lines skipped', () => {
    expect(readHierarchyRows(hierarchy('ok.csv', 'a,x,*\n\nb,x,*\n'))).toEqual([['a', 'x', '*'], ['b', 'x', '*']]);
  });
});
