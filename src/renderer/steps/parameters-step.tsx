import { useEffect, type ComponentType } from 'react';
import type { CustosApi, OpenedFile } from '../../common/ipc/api.js';
import { own } from '../../common/job/names.js';
import type { Role } from '../../common/job/job-parts.js';
import { browserMechanismOf, type Drafts } from '../../mechanisms/browser-registry.js';
import type { MechanismType } from '../../mechanisms/definitions.js';
import type { FormProps } from '../components/browser-mechanism.js';
import { RecodingTable } from '../components/recoding-table.js';
import { HierarchyBuilder } from '../components/hierarchy-builder.js';
import { checkKey } from '../components/recoding.js';
import { plainFailure } from '../components/plain-messages.js';
import { levelsChosenAfterPreview, levelsSearched } from '../state/job.js';
import { parameterProblems, wizardContext } from '../state/validation.js';
import type { Action, WizardState } from '../state/wizard-state.js';

/** The columns the hierarchy table lists: those of the roles the mechanism recodes, else every column not dropped. */
function recodedColumns(file: OpenedFile, state: WizardState, roles: readonly Role[] | undefined) {
  return file.columns.filter((c) => {
    const role = own(state.roles, c.name) ?? 'quasi';
    return roles ? roles.includes(role) : role !== 'identifier';
  });
}

/**
 * The chosen mechanism's own form, looked up by method.type; the shared
 * hierarchy table is handed to the mechanisms that recode.
 * chooseFile: the desktop's open dialog, which also grants the chosen file to the app (typed paths are not granted there).
 */
export function ParametersStep(props: {
  file: OpenedFile;
  state: WizardState;
  dispatch: (a: Action) => void;
  chooseFile?: (() => Promise<string | null>) | undefined;
  /** Checks hierarchy files against their columns on the host, where they are typed. */
  checkHierarchy?: CustosApi['checkHierarchy'] | undefined;
  /** The hierarchy builder's reads of a column's values and its writes of the files it builds. */
  rows?: CustosApi['rows'] | undefined;
  saveHierarchy?: CustosApi['saveHierarchy'] | undefined;
}) {
  const { file, state, dispatch, checkHierarchy } = props;
  // Every hierarchy file is checked against its column as soon as it is named (debounced while typing).
  const pending = Object.entries(state.hierarchies)
    .filter(([column, h]) => h.kind === 'file' && h.file.trim() !== '' && (state.hierarchyChecks ? own(state.hierarchyChecks, column)?.key : undefined) !== checkKey(file.fileId, h.file))
    .map(([column, h]) => [column, h.file] as const);
  const pendingKey = JSON.stringify(pending);
  useEffect(() => {
    if (!checkHierarchy || pending.length === 0) return;
    const timer = setTimeout(() => {
      for (const [column, path] of pending) {
        void checkHierarchy({ path, fileId: file.fileId, column }).then((result) =>
          dispatch({ type: 'hierarchyChecked', column, check: result.ok ? { key: checkKey(file.fileId, path), ...result.value } : { key: checkKey(file.fileId, path), failure: plainFailure(result.failure) } }),
        );
      }
    }, 400);
    return () => clearTimeout(timer);
    // pendingKey stands for `pending`: the checks to run change only when it does.
  }, [pendingKey, checkHierarchy, file.fileId, dispatch]);
  const type: MechanismType = state.method;
  const mechanism = browserMechanismOf(type);
  const problems = parameterProblems(state, file);
  const context = wizardContext(state, file);
  const columns = mechanism.recodes ? recodedColumns(file, state, mechanism.recodedRoles?.(state.drafts[type] as never)) : [];
  const recodingTable = mechanism.recodes ? (
    <>
    <RecodingTable
      columns={columns}
      choices={state.hierarchies}
      onChange={(column, patch) => dispatch({ type: 'setHierarchy', column, patch })}
      problems={problems}
      searched={levelsSearched(state)}
      chooseFile={props.chooseFile}
      checks={state.hierarchyChecks}
      fileId={file.fileId}
    />
    <HierarchyBuilder file={file} columns={columns} choices={state.hierarchies} rows={props.rows} saveHierarchy={props.saveHierarchy} onUse={(column, patch) => dispatch({ type: 'setHierarchy', column, patch })} />
    </>
  ) : null;
  // The draft and the form come from the same registry entry, keyed by the same type.
  const Form = mechanism.Form as ComponentType<FormProps<Drafts[MechanismType]>>;
  return (
    <>
      <Form
      draft={state.drafts[type]}
      set={(patch) => dispatch({ type: 'patchDraft', method: type, patch } as Action)}
      context={context}
      problems={problems}
      recodingTable={recodingTable}
      levelsChangedAfterPreview={levelsChosenAfterPreview(state)}
      />
    </>
  );
}
