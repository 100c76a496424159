// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ColumnInfo, OpenedFile } from '../../src/common/ipc/api.js';
import { HierarchyBuilder } from '../../src/renderer/components/hierarchy-builder.js';
import { NO_HIERARCHY, type HierarchyChoice } from '../../src/renderer/components/recoding.js';
import { SURVEY_FILE } from './survey-file.js';

afterEach(cleanup);

const columns: ColumnInfo[] = [
  { name: 'town', type: 'text', distinct: 3, missing: 0, top: [{ value: 'Oslo', count: 6 }, { value: 'Lund', count: 3 }, { value: 'Bergen', count: 1 }] },
  { name: 'age', type: 'integer', distinct: 4, missing: 0, top: [{ value: '20', count: 4 }, { value: '50', count: 3 }, { value: '91', count: 2 }, { value: '99', count: 1 }] },
];
const file: OpenedFile = { ...SURVEY_FILE, path: '/data/reg.csv', columns };

function builder(onUse: (column: string, patch: Partial<HierarchyChoice>) => void, saved: { path: string; rows: string[][] }[] = []) {
  return render(
    <HierarchyBuilder
      file={file}
      columns={columns}
      choices={Object.create(null)}
      saveHierarchy={async (r) => {
        saved.push({ path: r.path, rows: r.rows.map((row) => [...row]) });
        return { ok: true, value: { path: r.path } };
      }}
      onUse={onUse}
    />,
  );
}

describe('the hierarchy builder', () => {
  it('reads a pasted mapping, previews the tree, and saves the ARX rows as the file the table then names', async () => {
    const used: [string, Partial<HierarchyChoice>][] = [];
    const saved: { path: string; rows: string[][] }[] = [];
    builder((c, p) => used.push([c, p]), saved);
    fireEvent.change(screen.getByLabelText(/One line per value/), { target: { value: 'Oslo;Øst;Norway\nBergen;Vest;Norway\nLund;Skåne;Sweden' } });
    fireEvent.click(screen.getByRole('button', { name: 'Read the mapping' }));
    expect(screen.getByRole('figure').textContent).toContain('Norway · 7');
    fireEvent.click(screen.getByRole('button', { name: /Save the file and use it for “town”/ }));
    await screen.findByText(/Saved \/data\/reg-town-hierarchy.csv/);
    expect(saved).toEqual([{ path: '/data/reg-town-hierarchy.csv', rows: [['Oslo', 'Øst', 'Norway', '*'], ['Lund', 'Skåne', 'Sweden', '*'], ['Bergen', 'Vest', 'Norway', '*']] }]);
    expect(used).toEqual([['town', { kind: 'file', file: '/data/reg-town-hierarchy.csv', level: 1 }]]);
  });

  it('reads back the groups of the file the table names (after a reload, or on coming back to the column), to edit and save in place', async () => {
    const saved: { path: string; rows: string[][] }[] = [];
    const asked: string[] = [];
    const path = '/data/reg-town-hierarchy.csv';
    render(
      <HierarchyBuilder
        file={file}
        columns={columns}
        choices={Object.assign(Object.create(null), { town: { ...NO_HIERARCHY, kind: 'file', file: path, level: 1 } })}
        readHierarchy={async (r) => {
          asked.push(r.path);
          return { ok: true, value: [['Oslo', 'Øst', '*'], ['Bergen', 'Vest', '*'], ['Lund', 'Skåne', '*']] };
        }}
        saveHierarchy={async (r) => {
          saved.push({ path: r.path, rows: r.rows.map((row) => [...row]) });
          return { ok: true, value: { path: r.path } };
        }}
        onUse={() => undefined}
      />,
    );
    // Away to another column and back: the panel mounts again in the render where the values held are still age's.
    fireEvent.change(screen.getByLabelText('Column'), { target: { value: 'age' } });
    fireEvent.change(screen.getByLabelText('Column'), { target: { value: 'town' } });
    await screen.findByText(`The groups of ${path}, which the table uses for “town”: change them and save again to replace it.`);
    expect(screen.getByText('Skåne', { selector: 'strong' }).closest('li')!.textContent).toContain('Lund');
    expect((screen.getByLabelText(/Hierarchy file \(ARX CSV/) as HTMLInputElement).value).toBe(path);
    fireEvent.click(screen.getByRole('button', { name: 'Remove the group Skåne' }));
    fireEvent.change(screen.getByLabelText('Group name'), { target: { value: 'Øst' } });
    const list = screen.getByLabelText('Values of “town”') as HTMLSelectElement;
    for (const o of Array.from(list.options)) o.selected = o.value === 'Lund';
    fireEvent.change(list);
    fireEvent.click(screen.getByRole('button', { name: 'Assign to the group' }));
    fireEvent.click(screen.getByRole('button', { name: /Save the file and use it for “town”/ }));
    await screen.findByText(new RegExp(`Saved ${path}`));
    expect(asked).toEqual([path, path]);
    expect(saved).toEqual([{ path, rows: [['Oslo', 'Øst', '*'], ['Lund', 'Øst', '*'], ['Bergen', 'Vest', '*']] }]);
  });

  it('says why the groups of a named file cannot be edited here', async () => {
    render(
      <HierarchyBuilder
        file={file}
        columns={columns}
        choices={Object.assign(Object.create(null), { town: { ...NO_HIERARCHY, kind: 'file', file: '/data/other.csv', level: 1 } })}
        readHierarchy={async () => ({ ok: true, value: [['Oslo', 'Øst', '*'], ['Osloo', 'Øst', '*']] })}
        onUse={() => undefined}
      />,
    );
    await screen.findByText('The table names /data/other.csv for “town”, but its groups cannot be edited here:');
    expect(screen.getByText(/“Osloo” \(line 2\)/)).toBeTruthy();
  });

  it('names the values a mapping leaves out and keeps the save button off', () => {
    builder(() => undefined);
    fireEvent.change(screen.getByLabelText(/One line per value/), { target: { value: 'Oslo;Øst\nOsloo;Øst' } });
    fireEvent.click(screen.getByRole('button', { name: 'Read the mapping' }));
    expect(screen.getByText(/“Osloo” \(line 2\)/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/One line per value/), { target: { value: 'Oslo;Øst' } });
    fireEvent.click(screen.getByRole('button', { name: 'Read the mapping' }));
    expect(screen.getByText(/2 values of “town” are in no group of level 1: “Lund”, “Bergen”/)).toBeTruthy();
    expect((screen.getByRole('button', { name: /Save the file/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('codes the top of a numeric column by slider, counting the records it changes, and hands the table an interval hierarchy', () => {
    const used: [string, Partial<HierarchyChoice>][] = [];
    builder((c, p) => used.push([c, p]));
    fireEvent.change(screen.getByLabelText('Column'), { target: { value: 'age' } });
    expect((screen.getByLabelText('Kind of hierarchy') as HTMLSelectElement).value).toBe('coding');
    fireEvent.change(screen.getByLabelText('Top code of age'), { target: { value: '90' } });
    expect(screen.getByText('read “90+” (3 records)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use this coding for “age”' }));
    expect(used).toEqual([['age', { kind: 'interval', widths: '', top: '90', bottom: '', level: 1 }]]);
  });
});
