// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReactElement } from 'react';
import type { AppInfo, CustosApi, HostFailure, OpenedFile, RecentJob } from '../../src/common/ipc/api.js';
import { renamedColumnsWarning } from '../../src/io/input/table-builder.js';
import { recentLabels } from '../../src/renderer/recent-labels.js';
import { initialState, reducer, type Action, type WizardState } from '../../src/renderer/state/wizard-state.js';
import { OpenStep } from '../../src/renderer/steps/open-step.js';

afterEach(cleanup);

const info: AppInfo = { version: 'test', host: 'web', samplePath: '/sample/adult.csv', sampleName: 'Adult' };

function api(recent: string[] = [], jobs: RecentJob[] = []): CustosApi {
  return { recentFiles: async () => recent, recentJobs: async () => jobs, rows: async () => ({ ok: true, value: [] }) } as unknown as CustosApi;
}

/** The Open step with a state kept as the app keeps it, and an open that answers with the given failure. */
function renderOpen(options: { recent?: string[]; jobs?: RecentJob[]; failure?: HostFailure; state?: WizardState }) {
  let state: WizardState = options.state ?? initialState;
  const view = (): ReactElement => (
    <OpenStep
      api={api(options.recent, options.jobs)}
      info={info}
      state={state}
      dispatch={dispatch}
      open={async (path) => {
        dispatch({ type: 'openFailed', path });
        return options.failure;
      }}
      restoreJob={async () => undefined}
    />
  );
  function dispatch(action: Action): void {
    state = reducer(state, action);
    result.rerender(view());
  }
  const result = render(view());
  return { getState: () => state };
}

describe('recent chips', () => {
  it('name a file by its name, with as many parent folders as tell same-named files apart', () => {
    expect(recentLabels(['/data/2024/release.sav', '/data/2025/release.sav', '/data/adult.csv'])).toEqual(['2024/release.sav', '2025/release.sav', 'adult.csv']);
    expect(recentLabels(['/a/x/data.csv', '/b/x/data.csv', 'C:\\work\\y\\data.csv'])).toEqual(['a/x/data.csv', 'b/x/data.csv', 'y/data.csv']);
    expect(recentLabels(['/one.csv'])).toEqual(['one.csv']);
    // Two jobs on one file: the same short label.
    expect(recentLabels(['/data/adult.csv', '/data/adult.csv', '/elsewhere/x.csv'])).toEqual(['adult.csv', 'adult.csv', 'x.csv']);
  });

  it('show the three newest files and jobs, the rest behind More…', async () => {
    const recent = ['/d/2024/release.sav', '/d/2025/release.sav', '/d/a.csv', '/d/b.csv', '/d/c.csv'];
    const job = (i: number, path: string): RecentJob => ({ ranAt: `2026-11-2${i}T06:00:00.000Z`, inputName: path.split('/').pop()!, methodType: 'reconstruction-privacy', job: { input: { path } } });
    const jobs = [job(5, '/x/2024/release.sav'), job(4, '/x/2025/release.sav'), job(3, '/x/a.csv'), job(2, '/x/b.csv')];
    renderOpen({ recent, jobs });
    const files = await screen.findByRole('navigation', { name: 'Recent files' });
    await waitFor(() => expect(within(files).getAllByRole('button').map((b) => b.textContent)).toEqual(['2024/release.sav', '2025/release.sav', 'a.csv', 'More… (2)']));
    const more = within(files).getByRole('button', { name: 'More… (2)' });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(more);
    expect(within(files).getAllByRole('button').map((b) => b.textContent)).toEqual(['2024/release.sav', '2025/release.sav', 'a.csv', 'b.csv', 'c.csv', 'Fewer']);
    const jobList = screen.getByRole('navigation', { name: 'Recent jobs' });
    const chips = within(jobList).getAllByRole('button');
    expect(chips).toHaveLength(4);
    expect(chips[0]!.textContent).toMatch(/^2024\/release\.sav · /);
    expect(chips[1]!.textContent).toMatch(/^2025\/release\.sav · /);
    expect(chips[3]!.textContent).toBe('More… (1)');
  });
});

describe('an Open that fails', () => {
  const openPath = async (path: string): Promise<void> => {
    fireEvent.change(screen.getByLabelText('File path'), { target: { value: path } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('alert');
  };

  it('a workbook: the sheet is named once, the Sheet selector offers every sheet, and no delimiter or encoding is asked for', async () => {
    const { getState } = renderOpen({
      failure: { kind: 'input', message: 'survey.xlsx, sheet “Notes”, line 2: every one of the sheet\'s 1 record(s) is malformed', format: 'xlsx', sheet: 'Notes', sheets: ['Notes', 'Data 2025'], advice: 'sheet', line: 2 },
    });
    await openPath('/data/survey.xlsx');
    expect(screen.getByRole('alert').textContent).toBe("This file cannot be read. survey.xlsx, sheet “Notes”, line 2: every one of the sheet's 1 record(s) is malformed. The table may be on another sheet: choose it under “Sheet”.");
    expect(screen.queryByLabelText('Delimiter')).toBeNull();
    expect(screen.queryByLabelText('Encoding')).toBeNull();
    const sheet = screen.getByLabelText('Sheet') as HTMLSelectElement;
    expect(sheet.value).toBe('Notes');
    expect(Array.from(sheet.options).map((o) => o.value)).toEqual(['Notes', 'Data 2025']);
    fireEvent.change(sheet, { target: { value: 'Data 2025' } });
    expect(getState().fileOptions.sheet).toBe('Data 2025');
  });

  it('delimited text: the delimiter and encoding advice where they can be the cause, never for a missing file or a Parquet file', async () => {
    renderOpen({ failure: { kind: 'input', message: 'malformed.csv, line 202, column 4: a quoted field is never closed', format: 'csv', advice: 'reading-options', line: 202 } });
    await openPath('/data/malformed.csv');
    const text = screen.getByRole('alert').textContent!;
    expect(text).toBe('This file cannot be read. malformed.csv, line 202, column 4: a quoted field is never closed. The delimiter or the encoding may not be the file’s: choose them under “How to read the file” (or let Custos detect them), or fix the file.');
    expect(screen.getByLabelText('Delimiter')).toBeTruthy();
    cleanup();
    renderOpen({ failure: { kind: 'input', message: 'gone.csv: the file does not exist (or a link points nowhere)', advice: 'path' } });
    await openPath('/data/gone.csv');
    expect(screen.getByRole('alert').textContent).toBe('This file cannot be read. gone.csv: the file does not exist (or a link points nowhere). Check the path: the file may have been moved, renamed or deleted.');
    cleanup();
    renderOpen({ failure: { kind: 'input', message: 'nested.parquet: column "tags" is nested', format: 'parquet' } });
    await openPath('/data/nested.parquet');
    expect(screen.getByRole('alert').textContent).toBe('This file cannot be read. nested.parquet: column "tags" is nested.');
    expect(screen.queryByLabelText('Delimiter')).toBeNull();
    screen.getByText(/Parquet files carry their own encoding/);
  });
});

describe('an Open that renamed columns', () => {
  it('lists each renamed column in a warning on the Open step', async () => {
    const file: OpenedFile = {
      fileId: '00000000-0000-4000-8000-000000000000',
      path: '/data/pandas.csv',
      name: 'pandas.csv',
      rows: 2,
      bytes: 30,
      sha256: 'a'.repeat(64),
      format: 'csv',
      delimiter: ',',
      columns: ['column_1', 'dup', 'dup_2'].map((name) => ({ name, type: 'text', distinct: 2, missing: 0, top: [] })),
      rejected: [],
      rejectedCount: 0,
      renamed: [
        { column: 1, from: '', to: 'column_1' },
        { column: 3, from: 'dup', to: 'dup_2' },
      ],
      renamedWarning: renamedColumnsWarning([
        { column: 1, from: '', to: 'column_1' },
        { column: 3, from: 'dup', to: 'dup_2' },
      ]),
    };
    renderOpen({ state: reducer(initialState, { type: 'opened', file }) });
    const warning = screen.getByText('Some columns had no name of their own.').parentElement!;
    expect(warning.textContent).toContain('column 1 (no name in the header) is read as "column_1"; column 3 ("dup" again) is read as "dup_2".');
    expect(warning.textContent).toContain('The internal report records this');
  });
});
