/**
 * The report schema as a union keyed on the method: each mechanism's report
 * is the shared model plus the sections its metadata names, and nothing else.
 * verify parses every report it reads with this.
 */
import { reportSchemaWith, type Report, type ReportSectionName, type ReportVariant } from '../common/report/report-model.js';
import { metadataOf } from './definitions.js';

export type ParsedReport = { readonly ok: true; readonly report: Report } | { readonly ok: false; readonly problems: readonly string[] };

function field(path: readonly (string | number)[]): string {
  return path.reduce<string>((key, part) => (typeof part === 'number' ? `${key}[${part}]` : key ? `${key}.${part}` : part), '');
}

/** The step types of a chain's report (undefined: not a chain), or the problem with them. */
function chainStepTypes(value: unknown): readonly string[] | string | undefined {
  const chain = (value as { chain?: unknown }).chain;
  if (chain === undefined) return undefined;
  const steps = typeof chain === 'object' && chain !== null ? (chain as { steps?: unknown }).steps : undefined;
  if (!Array.isArray(steps)) return 'chain.steps is not a list of steps';
  const types = steps.map((s: unknown) => (typeof s === 'object' && s !== null ? (s as { type?: unknown }).type : undefined));
  const unknown = types.findIndex((t) => typeof t !== 'string' || !metadataOf(t));
  if (unknown >= 0) return `chain.steps[${unknown}].type ${JSON.stringify(types[unknown])} is not a Custos method`;
  return types as string[];
}

/** Parses a report of the expected variant; every problem names its field. */
export function parseReport(value: unknown, variant: ReportVariant): ParsedReport {
  const head = (typeof value === 'object' && value !== null ? value : {}) as { variant?: unknown; method?: { type?: unknown } };
  if (head.variant !== variant) return { ok: false, problems: [`variant is ${JSON.stringify(head.variant)}, not "${variant}"`] };
  const type = head.method?.type;
  const metadata = typeof type === 'string' ? metadataOf(type) : undefined;
  if (!metadata) return { ok: false, problems: [`method.type ${JSON.stringify(type)} is not a Custos method`] };
  const steps = chainStepTypes(value);
  if (typeof steps === 'string') return { ok: false, problems: [steps] };
  // A chain's report holds both steps' sections and its own; a mechanism's, its own sections only.
  const sections: readonly ReportSectionName[] = steps ? [...new Set([...steps.flatMap((t) => metadataOf(t)!.reportSections), 'chain' as const])] : metadata.reportSections;
  const parsed = reportSchemaWith(variant, sections).safeParse(value);
  if (parsed.success) return { ok: true, report: parsed.data as Report };
  const problems = parsed.error.issues.map((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((k) => `${field([...issue.path, k])} (not a field of the ${variant} ${metadata.type} report)`).join('; ') : `${field(issue.path)}: ${issue.message}`,
  );
  return { ok: false, problems };
}
