/** The key a job may carry where the schema has fixed keys: notes for people, ignored by Custos. */
export const HELP_KEY = '_help';

/** A note for people: `_help`, or any key starting with an underscore (`_comment`, `_note`), where the schema's keys are fixed. */
export function isNoteKey(key: string): boolean {
  return key.startsWith('_');
}

/** The fixed-key sections notes are dropped from; attributes, hierarchies, domains, dates… are keyed by names from the data and kept whole. */
const SECTIONS = ['input', 'method', 'output', 'review'] as const;

/**
 * The job without its notes: `_help` and the other underscore keys are dropped quietly where the
 * schema has fixed keys (the job, input, method or each step of a chain's, output and review, output.csv), never from
 * attributes or hierarchies, whose keys are column names. Every place that loads a job (the
 * command line's loader, the wizard) reads it through this.
 */
export function withoutHelp(job: unknown): unknown {
  if (!isRecord(job)) return job;
  const strip = (section: unknown): unknown => {
    if (!isRecord(section) || !Object.keys(section).some(isNoteKey)) return section;
    return Object.fromEntries(Object.entries(section).filter(([key]) => !isNoteKey(key)));
  };
  // A copy: the job as written is never changed.
  const out = { ...(strip(job) as Record<string, unknown>) };
  for (const key of SECTIONS) if (Object.hasOwn(out, key)) out[key] = strip(out[key]);
  // A chain's method is a list of steps, each a method object with its own notes.
  if (Array.isArray(out['method'])) out['method'] = out['method'].map(strip);
  if (isRecord(out['output']) && Object.hasOwn(out['output'], 'csv')) out['output'] = { ...out['output'], csv: strip(out['output']['csv']) };
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
