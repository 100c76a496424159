import { useId, useState } from 'react';
import { metadataOf } from '../mechanisms/definitions.js';
import { deleteProject, nextProjectId, projectOf, readProjects, renameProject, saveProject, type Project } from './state/projects.js';
import type { WizardState } from './state/wizard-state.js';
import { OWN_UNDO } from './undo-bar.js';

/** The project's method by its card title; a chain by both steps', in order. */
function methodsOf(method: Project['job']['method']): string {
  const title = (type: string): string => metadataOf(type)?.cardTitle ?? type;
  return Array.isArray(method) ? method.map((m) => title(m.type)).join(', then ') : title(method.type);
}

const ownUndo = { [OWN_UNDO]: '' };

/** How many projects are listed before "More…". */
const PROJECTS_SHOWN = 3;

function inputName(p: Project): string {
  return (p.job.input.path ?? '').split(/[\\/]/).pop() ?? '';
}

/**
 * The Open step's projects: save the job as it stands under a name with notes, and the recent
 * projects to open, rename or forget. Storage is the browser's, as for the draft (state/projects.ts).
 */
export function ProjectsPanel(props: { state: WizardState; storage: Storage; openProject: (project: Project) => void; now?: () => Date }) {
  const { state, storage } = props;
  const [projects, setProjects] = useState(() => readProjects(storage));
  // Saving again under the name of the project last saved or opened for this input updates it.
  const current = projects.find((p) => p.job.input.path === state.inputPath);
  const [name, setName] = useState(current?.name ?? '');
  const [notes, setNotes] = useState(current?.notes ?? '');
  const [message, setMessage] = useState<string>();
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  const [deleting, setDeleting] = useState<string>();
  // The form opens on request and the list shows the newest few: the Open step's path field stays in view.
  const [saving, setSaving] = useState(false);
  const [all, setAll] = useState(false);
  const id = useId();
  const refresh = (): void => setProjects(readProjects(storage));
  const save = (): void => {
    const same = projects.find((p) => p.name === name.trim());
    const project = projectOf(state, name, notes, same?.id ?? nextProjectId(projects), (props.now ?? (() => new Date()))());
    if (!project) return;
    setMessage(saveProject(storage, project) ? `Saved “${project.name}”${same ? ', replacing the project of that name' : ''}.` : 'The browser storage refused the project (full or disabled).');
    refresh();
  };
  return (
    <section className="projects" aria-labelledby={`${id}-title`} {...ownUndo}>
      <h3 id={`${id}-title`}>Projects</h3>
      {state.inputPath && !saving && (
        <button type="button" aria-expanded={false} onClick={() => setSaving(true)}>
          Save as project…
        </button>
      )}
      {state.inputPath && saving && (
        <form
          className="project-save"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <label htmlFor={`${id}-name`}>Project name</label>
          <input id={`${id}-name`} type="text" autoFocus value={name} onChange={(e) => setName(e.target.value)} placeholder="Census 2025, public file" />
          <label htmlFor={`${id}-notes`}>Notes</label>
          <textarea id={`${id}-notes`} rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} placeholder="Why these settings, who asked, what is left to check" />
          <span className="project-actions">
            <button type="submit" disabled={!name.trim()}>
              Save as project
            </button>{' '}
            <button type="button" className="link" onClick={() => setSaving(false)}>
              Close
            </button>{' '}
            <span className="muted">The job and your notes, never a value of the data.</span>
          </span>
        </form>
      )}
      {message && (
        <p className="muted" role="status">
          {message}
        </p>
      )}
      {projects.length > 0 ? (
        <ul className="project-list" aria-label="Recent projects">
          {(all ? projects : projects.slice(0, PROJECTS_SHOWN)).map((p) => (
            <li key={p.id}>
              {renaming?.id === p.id ? (
                <form
                  className="project-rename"
                  onSubmit={(e) => {
                    e.preventDefault();
                    if (renameProject(storage, p.id, renaming.name)) {
                      setRenaming(undefined);
                      refresh();
                    } else setMessage(renaming.name.trim() ? `Another project is named “${renaming.name.trim()}”.` : 'A project needs a name.');
                  }}
                  onKeyDown={(e) => e.key === 'Escape' && setRenaming(undefined)}
                >
                  <label htmlFor={`${id}-rename-${p.id}`} className="visually-hidden">
                    New name of {p.name}
                  </label>
                  <input id={`${id}-rename-${p.id}`} type="text" value={renaming.name} autoFocus onChange={(e) => setRenaming({ id: p.id, name: e.target.value })} />
                  <button type="submit">Rename</button>
                  <button type="button" className="link" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <>
                  <button type="button" className="chip" title={`Restore this project's job and open ${p.job.input.path}`} onClick={() => props.openProject(p)}>
                    {p.name}
                  </button>{' '}
                  <span className="muted">
                    {inputName(p)} · {methodsOf(p.job.method)} · saved {new Date(p.savedAt).toLocaleString(undefined, { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' })}
                  </span>{' '}
                  <button type="button" className="link" aria-label={`Rename ${p.name}`} onClick={() => setRenaming({ id: p.id, name: p.name })}>
                    Rename
                  </button>{' '}
                  {deleting === p.id ? (
                    <span role="group" aria-label={`Delete ${p.name}?`}>
                      Forget this project (no file is deleted)?{' '}
                      <button
                        type="button"
                        className="link"
                        autoFocus
                        onClick={() => {
                          deleteProject(storage, p.id);
                          setDeleting(undefined);
                          refresh();
                        }}
                      >
                        Delete
                      </button>{' '}
                      <button type="button" className="link" onClick={() => setDeleting(undefined)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="link" aria-label={`Delete ${p.name}`} onClick={() => setDeleting(p.id)}>
                      Delete
                    </button>
                  )}
                  {p.notes && <p className="project-notes">{p.notes}</p>}
                </>
              )}
            </li>
          ))}
          {projects.length > PROJECTS_SHOWN && (
            <li>
              <button type="button" className="link" aria-expanded={all} onClick={() => setAll(!all)}>
                {all ? 'Fewer' : `More… (${projects.length - PROJECTS_SHOWN})`}
              </button>
            </li>
          )}
        </ul>
      ) : (
        <p className="muted">No projects yet: open a file, then save its job here with a name and notes.</p>
      )}
    </section>
  );
}
