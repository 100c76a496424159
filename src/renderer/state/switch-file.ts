import type { OpenedFile } from '../../common/ipc/api.js';
import { named } from '../../common/job/names.js';
import type { Drafts } from '../../mechanisms/browser-registry.js';
import type { WizardState } from './wizard-state.js';

/** What another file keeps of the wizard's settings, and what it drops (in words, for the notice). */
export interface Switched {
  readonly state: Pick<WizardState, 'hierarchies' | 'fileOptions' | 'drafts'> & { readonly methodExtras?: WizardState['methodExtras'] };
  readonly dropped: readonly string[];
}

const quoted = (names: readonly string[]): string => names.map((n) => `“${n}”`).join(', ');

/** A record keyed by column names with the names the new file lacks left out, and those names. */
function keepColumns<T>(record: Readonly<Record<string, T>>, has: (name: string) => boolean): { kept: Record<string, T>; gone: string[] } {
  const entries = Object.entries(record);
  return { kept: named(entries.filter(([name]) => has(name))), gone: entries.filter(([name]) => !has(name)).map(([name]) => name) };
}

/**
 * The settings that still apply when another file is opened: those naming a column the new file has
 * (a hierarchy, a date format, a column a method counts or aggregates, a declared domain), and a
 * sheet the new workbook holds. The rest would sit in the job unseen (the tables show the new
 * file's columns only) and block the run, so it is dropped and named.
 */
export function keepWhatApplies(state: WizardState, file: OpenedFile): Switched {
  const columns = new Set(file.columns.map((c) => c.name));
  const has = (name: string): boolean => columns.has(name);
  const dropped: string[] = [];
  const hierarchies = keepColumns(state.hierarchies, has);
  if (hierarchies.gone.length > 0) dropped.push(`the ${hierarchies.gone.length === 1 ? 'hierarchy' : 'hierarchies'} of ${quoted(hierarchies.gone)}`);
  const dates = keepColumns(state.fileOptions.dates, has);
  if (dates.gone.length > 0) dropped.push(`the date format of ${quoted(dates.gone)}`);
  const sheet = state.fileOptions.sheet;
  const keepSheet = sheet !== '' && (file.sheets ?? []).includes(sheet);
  if (sheet !== '' && !keepSheet) dropped.push(`the sheet “${sheet}”`);
  // A method's form naming columns: the columns it counts or aggregates, the domains it declares.
  const methodColumns = new Set<string>();
  const drafts = Object.fromEntries(
    Object.entries(state.drafts).map(([type, draft]) => {
      const d = draft as unknown as Record<string, unknown>;
      const out: Record<string, unknown> = { ...d };
      if (Array.isArray(d['columns'])) {
        const listed = d['columns'] as string[];
        for (const c of listed.filter((c) => !has(c))) methodColumns.add(c);
        out['columns'] = listed.filter(has);
      }
      if (d['domains'] && typeof d['domains'] === 'object' && !Array.isArray(d['domains'])) {
        const domains = keepColumns(d['domains'] as Record<string, unknown>, has);
        for (const c of domains.gone) methodColumns.add(c);
        out['domains'] = domains.kept;
      }
      return [type, out];
    }),
  ) as unknown as Drafts;
  let methodExtras = state.methodExtras;
  if (methodExtras) {
    const fields: Record<string, unknown> = { ...methodExtras.fields };
    const domains = fields['domains'];
    if (domains && typeof domains === 'object' && !Array.isArray(domains)) {
      const kept = keepColumns(domains as Record<string, unknown>, has);
      for (const c of kept.gone) methodColumns.add(c);
      fields['domains'] = kept.kept;
    }
    const sensitive = fields['sensitive'];
    if (typeof sensitive === 'string' && !has(sensitive)) {
      methodColumns.add(sensitive);
      delete fields['sensitive'];
    }
    methodExtras = { type: methodExtras.type, fields };
  }
  if (methodColumns.size > 0) dropped.push(`the method's settings for ${quoted([...methodColumns])}`);
  return {
    state: {
      hierarchies: hierarchies.kept,
      // The same object when nothing is dropped: a change of the reading options makes the Open step read the file again.
      fileOptions: dates.gone.length === 0 && (keepSheet || sheet === '') ? state.fileOptions : { ...state.fileOptions, sheet: keepSheet ? sheet : '', dates: dates.kept },
      drafts,
      ...(methodExtras ? { methodExtras } : {}),
    },
    dropped,
  };
}
