import { draftOf } from './autosave.js';
import type { JobFile } from './job.js';
import type { WizardState } from './wizard-state.js';

/**
 * Named projects: a job and the custodian's notes about it, kept in the browser storage beside the
 * autosaved draft (the renderer's own store; the host's recent lists hold only runs). Like the
 * draft, a project holds the job and never a value of the data: not even the input's checksum.
 */
export const PROJECTS_KEY = 'custos.projects.v1';

/** The most projects kept: saving one more forgets the least recently saved. */
export const PROJECTS_LIMIT = 50;

export interface Project {
  readonly id: string;
  readonly name: string;
  readonly notes: string;
  readonly savedAt: string;
  /** The job as the wizard would save it, without the input's checksum. */
  readonly job: JobFile;
}

function isProject(value: unknown): value is Project {
  if (typeof value !== 'object' || value === null) return false;
  const p = value as Record<string, unknown>;
  return typeof p['id'] === 'string' && typeof p['name'] === 'string' && typeof p['notes'] === 'string' && typeof p['savedAt'] === 'string' && typeof p['job'] === 'object' && p['job'] !== null;
}

/** The saved projects, most recently saved first; entries that cannot be read are left out. */
export function readProjects(storage: Pick<Storage, 'getItem'>): Project[] {
  try {
    const parsed = JSON.parse(storage.getItem(PROJECTS_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter(isProject).sort((a, b) => b.savedAt.localeCompare(a.savedAt)) : [];
  } catch {
    return [];
  }
}

function write(storage: Pick<Storage, 'setItem'>, projects: readonly Project[]): boolean {
  try {
    storage.setItem(PROJECTS_KEY, JSON.stringify(projects.slice(0, PROJECTS_LIMIT)));
    return true;
  } catch {
    return false;
  }
}

/** A project of the wizard's job as it stands, or undefined before a file is chosen. */
export function projectOf(state: WizardState, name: string, notes: string, id: string, now: Date): Project | undefined {
  const draft = draftOf(state, now);
  return draft ? { id, name: name.trim(), notes, savedAt: draft.savedAt, job: draft.job } : undefined;
}

/** Saves a project; one of the same name is replaced (saving again updates it). False when storage refused. */
export function saveProject(storage: Pick<Storage, 'getItem' | 'setItem'>, project: Project): boolean {
  const others = readProjects(storage).filter((p) => p.id !== project.id && p.name !== project.name);
  return write(storage, [project, ...others]);
}

/** A new project's id: one more than the largest in use (ids are names of storage entries, not secrets). */
export function nextProjectId(projects: readonly Project[]): string {
  return String(projects.reduce((max, p) => Math.max(max, Number(p.id) || 0), 0) + 1);
}

export function renameProject(storage: Pick<Storage, 'getItem' | 'setItem'>, id: string, name: string): boolean {
  const projects = readProjects(storage);
  if (!name.trim() || projects.some((p) => p.id !== id && p.name === name.trim())) return false;
  return write(storage, projects.map((p) => (p.id === id ? { ...p, name: name.trim() } : p)));
}

/** Forgets a project: only Custos's own entry in the storage; no file is touched. */
export function deleteProject(storage: Pick<Storage, 'getItem' | 'setItem'>, id: string): boolean {
  return write(storage, readProjects(storage).filter((p) => p.id !== id));
}
