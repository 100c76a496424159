/** The key a job may carry where the schema has fixed keys: notes for people, ignored by Custos. */
export const HELP_KEY = '_help';

/**
 * The job without its notes: `_help` is dropped where the schema has fixed keys (the job, input,
 * method, output), never from attributes or hierarchies, whose keys are column names.
 */
export function withoutHelp(job: unknown): unknown {
  if (typeof job !== 'object' || job === null || Array.isArray(job)) return job;
  const strip = (section: unknown): unknown => {
    if (typeof section !== 'object' || section === null || Array.isArray(section) || !Object.hasOwn(section, HELP_KEY)) return section;
    const copy: Record<string, unknown> = { ...(section as Record<string, unknown>) };
    delete copy[HELP_KEY];
    return copy;
  };
  const top = strip(job) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...top };
  for (const key of ['input', 'method', 'output'] as const) if (Object.hasOwn(top, key)) out[key] = strip(top[key]);
  return out;
}
