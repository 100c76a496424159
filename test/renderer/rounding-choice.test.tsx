// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { named } from '../../src/common/job/names.js';
import { choicesOf, hierarchyProblems, NO_HIERARCHY, recodingExample, recodingOf } from '../../src/renderer/components/recoding.js';
import { RecodingTable } from '../../src/renderer/components/recoding-table.js';

afterEach(cleanup);

const age = { name: 'age', type: 'integer', distinct: 3, missing: 0, top: [{ value: '37', count: 5 }, { value: '41', count: 3 }, { value: 'n/a', count: 2 }] };
const roles = { age: 'quasi' as const };

describe('rounding in the hierarchy table', () => {
  it('is offered as a hierarchy kind with a labelled bases field', () => {
    const changes: unknown[] = [];
    const choices = named<typeof NO_HIERARCHY>([['age', { ...NO_HIERARCHY, kind: 'rounding', bases: '5, 10', level: 1 }]]);
    render(<RecodingTable columns={[age]} choices={choices} onChange={(column, patch) => changes.push({ column, patch })} problems={{}} searched={false} />);
    const kind = screen.getByRole('combobox', { name: 'Hierarchy of age' });
    expect(Array.from(kind.querySelectorAll('option'), (o) => o.value)).toContain('rounding');
    fireEvent.change(screen.getByRole('textbox', { name: 'Rounding bases of age' }), { target: { value: '5, 10, 100' } });
    expect(changes).toContainEqual({ column: 'age', patch: { bases: '5, 10, 100' } });
    expect(screen.getByText('37 → 35')).toBeTruthy();
  });

  it('becomes the job\'s hierarchy and comes back from it; bad bases and values are named where typed', () => {
    const choice = { ...NO_HIERARCHY, kind: 'rounding' as const, bases: '5, 10, 100', level: 2 };
    const recoding = recodingOf({ age: choice }, roles);
    expect(recoding.hierarchies['age']).toEqual({ type: 'rounding', bases: [5, 10, 100] });
    expect(recoding.levels['age']).toBe(2);
    expect(choicesOf(recoding.hierarchies, recoding.levels)['age']).toMatchObject({ kind: 'rounding', bases: '5, 10, 100', level: 2 });
    expect(recodingExample('37', choice)).toBe('37 → 30');
    expect(recodingExample('n/a', choice)).toBe('n/a: not a number');
    expect(hierarchyProblems({ age: { ...choice, bases: '5, 12' } }, roles, false)['hierarchy.age']).toMatch(/12 must be a larger multiple of 5/);
    expect(hierarchyProblems({ age: { ...choice, level: 5 } }, roles, false)['hierarchy.age']).toMatch(/has only 4 levels/);
    expect(hierarchyProblems({ age: choice }, roles, false, { columns: [age] })['hierarchy.age']).toMatch(/1 value of “age” cannot be rounded \(numbers only\): “n\/a”/);
  });
});

describe('a hierarchy file in the table', () => {
  it('names the file (a long path is clipped at the end where its name is) with its levels, and the preview does not invent a level the search chooses', () => {
    const path = '/a/very/long/folder/of/the/custodian/hierarchies/adult_hierarchy_age.csv';
    const choices = named<typeof NO_HIERARCHY>([['age', { ...NO_HIERARCHY, kind: 'file', file: path, level: 1 }]]);
    const checks = named([['age', { key: 'f1|' + path, levels: 4 }]]);
    render(<RecodingTable columns={[age]} choices={choices} onChange={() => {}} problems={{}} searched checks={checks} fileId="f1" />);
    expect(screen.getByText('adult_hierarchy_age.csv · 4 levels above the values')).toBeTruthy();
    expect((screen.getByRole('textbox', { name: 'Hierarchy file of age' }) as HTMLInputElement).title).toBe(path);
    expect(screen.getByText('37 → (level searched)')).toBeTruthy();
    cleanup();
    // A check of another path is stale: the name is shown, the levels are not.
    render(<RecodingTable columns={[age]} choices={choices} onChange={() => {}} problems={{}} searched={false} checks={named([['age', { key: 'f1|/other.csv', levels: 4 }]])} fileId="f1" />);
    expect(screen.getByText('adult_hierarchy_age.csv')).toBeTruthy();
    expect(screen.getByText('37 → level 1 of the file')).toBeTruthy();
  });
});
