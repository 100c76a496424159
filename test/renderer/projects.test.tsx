// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenedFile } from '../../src/common/ipc/api.js';
import { DRAFT_KEY } from '../../src/renderer/state/autosave.js';
import { deleteProject, nextProjectId, PROJECTS_KEY, projectOf, readProjects, renameProject, saveProject, type Project } from '../../src/renderer/state/projects.js';
import { initialState, reducer, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { ProjectsPanel } from '../../src/renderer/projects-panel.js';
import { SURVEY_FILE } from './survey-file.js';

afterEach(cleanup);

/** A file whose values are easy to find: none of them may reach a project. */
const file: OpenedFile = {
  ...SURVEY_FILE,
  sha256: 'f'.repeat(64),
  columns: [
    { name: 'surname', type: 'text', distinct: 100, missing: 0, top: [{ value: 'Kowalczykowa', count: 2 }] },
    { name: 'age', type: 'integer', distinct: 40, missing: 0, top: [{ value: '87654', count: 5 }] },
    { name: 'diagnosis', type: 'text', distinct: 3, missing: 0, top: [{ value: 'Huntingtonia', count: 60 }] },
  ],
};

function opened(): WizardState {
  const state = reducer(initialState, { type: 'opened', file });
  return reducer(reducer(state, { type: 'setRole', column: 'diagnosis', role: 'sensitive' }), { type: 'patchDraft', method: 'reconstruction-privacy', patch: { retention: 0.3 } });
}

function memoryStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries));
  return {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
    clear: () => map.clear(),
    key: (i: number) => [...map.keys()][i] ?? null,
    get length() {
      return map.size;
    },
  };
}

const at = (minute: number): Date => new Date(Date.UTC(2026, 10, 28, 8, minute));

describe('projects in storage', () => {
  it('hold the job and the notes, never a value of the data nor the input checksum', () => {
    const storage = memoryStorage();
    const project = projectOf(opened(), '  Survey 2026 ', 'asked by the board', '1', at(0))!;
    expect(saveProject(storage, project)).toBe(true);
    const text = storage.getItem(PROJECTS_KEY)!;
    for (const value of ['Kowalczykowa', '87654', 'Huntingtonia', 'f'.repeat(64), 'sha256']) expect(text).not.toContain(value);
    const [read] = readProjects(storage);
    expect(read).toMatchObject({ name: 'Survey 2026', notes: 'asked by the board' });
    expect(read!.job.input.path).toBe('/data/survey.csv');
    expect(read!.job.method).toMatchObject({ type: 'reconstruction-privacy', retention: 0.3 });
    expect(projectOf(initialState, 'x', '', '2', at(0))).toBeUndefined();
  });

  it('are listed most recent first; a name saved again is replaced, renamed only to a free name, deleted alone', () => {
    const storage = memoryStorage({ [DRAFT_KEY]: '{"kept":true}', [PROJECTS_KEY]: '[{"id":"9","name":7}, "junk"]' });
    expect(readProjects(storage)).toEqual([]);
    saveProject(storage, projectOf(opened(), 'A', '', '1', at(1))!);
    saveProject(storage, projectOf(opened(), 'B', '', '2', at(2))!);
    expect(readProjects(storage).map((p) => p.name)).toEqual(['B', 'A']);
    expect(nextProjectId(readProjects(storage))).toBe('3');
    saveProject(storage, projectOf(opened(), 'A', 'again', '3', at(3))!);
    expect(readProjects(storage).map((p) => [p.name, p.notes])).toEqual([['A', 'again'], ['B', '']]);
    expect(renameProject(storage, '2', 'A')).toBe(false);
    expect(renameProject(storage, '2', ' ')).toBe(false);
    expect(renameProject(storage, '2', 'C')).toBe(true);
    expect(deleteProject(storage, '3')).toBe(true);
    expect(readProjects(storage).map((p) => p.name)).toEqual(['C']);
    // Only the project's own entry goes: the draft beside it stays as it was.
    expect(storage.getItem(DRAFT_KEY)).toBe('{"kept":true}');
  });

  it('a storage that refuses is said, not thrown', () => {
    const full = { ...memoryStorage(), getItem: () => null, setItem: () => { throw new Error('QuotaExceededError'); } } as unknown as Storage;
    expect(saveProject(full, projectOf(opened(), 'A', '', '1', at(0))!)).toBe(false);
  });
});

describe('the projects panel', () => {
  it('saves, opens, renames and deletes projects with the keyboard-reachable controls', () => {
    const storage = memoryStorage();
    const openedProjects: Project[] = [];
    render(<ProjectsPanel state={opened()} storage={storage} openProject={(p) => openedProjects.push(p)} now={() => at(5)} />);
    expect(screen.getByText(/No projects yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Save as project…' }));
    const save = screen.getByRole('button', { name: 'Save as project' });
    expect(save.hasAttribute('disabled')).toBe(true);
    fireEvent.change(screen.getByLabelText('Project name'), { target: { value: 'Survey' } });
    fireEvent.change(screen.getByLabelText('Notes'), { target: { value: 'retention from the 2024 review' } });
    fireEvent.click(save);
    expect(screen.getByRole('status').textContent).toBe('Saved “Survey”.');
    const list = screen.getByRole('list', { name: 'Recent projects' });
    expect(within(list).getByText('retention from the 2024 review')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Survey' }));
    expect(openedProjects.map((p) => p.name)).toEqual(['Survey']);

    fireEvent.click(within(list).getByRole('button', { name: 'Rename Survey' }));
    const field = screen.getByLabelText('New name of Survey');
    fireEvent.change(field, { target: { value: 'Survey 2026' } });
    fireEvent.submit(field.closest('form')!);
    expect(readProjects(storage).map((p) => p.name)).toEqual(['Survey 2026']);

    fireEvent.click(screen.getByRole('button', { name: 'Delete Survey 2026' }));
    fireEvent.click(within(screen.getByRole('group', { name: 'Delete Survey 2026?' })).getByRole('button', { name: 'Keep' }));
    expect(readProjects(storage)).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Survey 2026' }));
    fireEvent.click(within(screen.getByRole('group', { name: 'Delete Survey 2026?' })).getByRole('button', { name: 'Delete' }));
    expect(readProjects(storage)).toHaveLength(0);
    expect(screen.getByText(/No projects yet/)).toBeTruthy();
  });

  it('lists the three newest, the rest behind More…', () => {
    const storage = memoryStorage();
    for (let i = 1; i <= 5; i++) saveProject(storage, projectOf(opened(), `P${i}`, '', String(i), at(i))!);
    render(<ProjectsPanel state={opened()} storage={storage} openProject={() => undefined} />);
    const list = screen.getByRole('list', { name: 'Recent projects' });
    expect(within(list).getAllByRole('button', { name: /^P\d$/ }).map((b) => b.textContent)).toEqual(['P5', 'P4', 'P3']);
    fireEvent.click(within(list).getByRole('button', { name: 'More… (2)' }));
    expect(within(list).getAllByRole('button', { name: /^P\d$/ })).toHaveLength(5);
  });

  it('offers no save before a file is chosen', () => {
    render(<ProjectsPanel state={initialState} storage={memoryStorage()} openProject={() => undefined} />);
    expect(screen.queryByRole('button', { name: /Save as project/ })).toBeNull();
  });
});
