/**
 * The report schema as a union keyed on the method: each mechanism's report
 * is the shared model plus the sections its metadata names, and nothing else.
 * verify parses every report it reads with this.
 */
import { reportSchemaWith, type Report, type ReportVariant } from '../common/report/report-model.js';
import { metadataOf } from './definitions.js';

export type ParsedReport = { readonly ok: true; readonly report: Report } | { readonly ok: false; readonly problems: readonly string[] };

function field(path: readonly (string | number)[]): string {
  return path.reduce<string>((key, part) => (typeof part === 'number' ? `${key}[${part}]` : key ? `${key}.${part}` : part), '');
}

/** Parses a report of the expected variant; every problem names its field. */
export function parseReport(value: unknown, variant: ReportVariant): ParsedReport {
  const head = (typeof value === 'object' && value !== null ? value : {}) as { variant?: unknown; method?: { type?: unknown } };
  if (head.variant !== variant) return { ok: false, problems: [`variant is ${JSON.stringify(head.variant)}, not "${variant}"`] };
  const type = head.method?.type;
  const metadata = typeof type === 'string' ? metadataOf(type) : undefined;
  if (!metadata) return { ok: false, problems: [`method.type ${JSON.stringify(type)} is not a Custos method`] };
  const parsed = reportSchemaWith(variant, metadata.reportSections).safeParse(value);
  if (parsed.success) return { ok: true, report: parsed.data as Report };
  const problems = parsed.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((k) => `${field([...issue.path, k])} (not a field of the ${variant} ${metadata.type} report)`).join('; ') : `${field(issue.path)}: ${issue.message}`,
  );
  return { ok: false, problems };
}
