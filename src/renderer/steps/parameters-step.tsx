import { useEffect, type ComponentType } from 'react';
import type { CustosApi, OpenedFile } from '../../common/ipc/api.js';
import { own } from '../../common/job/names.js';
import type { Role } from '../../common/job/job-parts.js';
import { browserMechanismOf, type Drafts } from '../../mechanisms/browser-registry.js';
import type { MechanismType } from '../../mechanisms/definitions.js';
import type { FormProps, Problems } from '../components/browser-mechanism.js';
import { RecodingTable } from '../components/recoding-table.js';
import { HierarchyBuilder } from '../components/hierarchy-builder.js';
import { checkKey } from '../components/recoding.js';
import { plainFailure } from '../components/plain-messages.js';
import { levelsChosenAfterPreview, levelsSearched } from '../state/job.js';
import { CHAIN_KEY, parameterProblems, stepProblems, wizardContext } from '../state/validation.js';
import { chainStepHeading } from '../state/chain-choice.js';
import { Callout } from '../components/fields.js';
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
  readHierarchy?: CustosApi['readHierarchy'] | undefined;
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
  const undo = state.undo && (
    <p className="undo">
      <button type="button" className="link" onClick={() => dispatch({ type: 'undo' })}>
        Undo the last change
      </button>
    </p>
  );
  if (!state.chain) return (
    <>
      {undo}
      <MechanismForm {...props} type={state.method} problems={parameterProblems(state, file)} />
    </>
  );
  // A chain: both steps' own forms, one after the other, each with its own problems; then the chain's rules.
  const chainProblem = parameterProblems(state, file)[CHAIN_KEY];
  return (
    <>
      {undo}
      {([1, 2] as const).map((step) => {
        const type = step === 1 ? state.chain!.identity : state.chain!.attribute;
        return (
          <section key={step} className="chain-step" aria-labelledby={`chain-step-${step}`}>
            <h3 id={`chain-step-${step}`}>{chainStepHeading(step, type)}</h3>
            <MechanismForm {...props} type={type} problems={stepProblems(state, file, type)} />
          </section>
        );
      })}
      {chainProblem && <Callout tone="error" title="These two steps do not make a sound chain.">{chainProblem}</Callout>}
    </>
  );
}

/** One mechanism's form with its problems; the shared hierarchy table when it recodes. */
function MechanismForm(props: Parameters<typeof ParametersStep>[0] & { type: MechanismType; problems: Problems }) {
  const { file, state, dispatch, type, problems } = props;
  const mechanism = browserMechanismOf(type);
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
    <HierarchyBuilder file={file} columns={columns} choices={state.hierarchies} rows={props.rows} saveHierarchy={props.saveHierarchy} readHierarchy={props.readHierarchy} onUse={(column, patch) => dispatch({ type: 'setHierarchy', column, patch })} />
    </>
  ) : null;
  // The draft and the form come from the same registry entry, keyed by the same type.
  const Form = mechanism.Form as ComponentType<FormProps<Drafts[MechanismType]>>;
  return (
    <Form
      draft={state.drafts[type]}
      set={(patch) => dispatch({ type: 'patchDraft', method: type, patch } as Action)}
      context={context}
      problems={problems}
      recodingTable={recodingTable}
      levelsChangedAfterPreview={levelsChosenAfterPreview(state)}
    />
  );
}
