import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { searchableText, type SearchablePart } from '../../io/input/searchable-text.js';
import { CONFIDENTIAL_MARK, type Report } from '../../common/report/report-model.js';
import { isDifferentiallyPrivate } from '../report-builder.js';
import { publicHierarchyName, publicInputName } from '../public-job.js';
import { parseReport } from '../../mechanisms/report-schema.js';

/** What the internal report tells about the input, to search the release for. */
export interface ConfidentialFacts {
  readonly sha256?: string;
  readonly path?: string;
  readonly rows?: number;
}

function isBareName(path: unknown): boolean {
  return typeof path !== 'string' || (path === basename(path) && !path.includes('\\'));
}

/** The public job names the input and its hierarchies generically (public-job.ts): any other name is the custodian's label. */
const isPublicInputName = (name: string): boolean => publicInputName(name) === name;
const isPublicHierarchyName = (name: string): boolean => publicHierarchyName(name) === name;

function internalFieldsOfJob(job: unknown): string[] {
  const found: string[] = [];
  const j = (job ?? {}) as { input?: { sha256?: unknown; path?: unknown; sheet?: unknown }; output?: { internalDir?: unknown; dir?: unknown; variant?: unknown }; method?: { hierarchies?: unknown } };
  if (j.input?.sha256 !== undefined) found.push('job input.sha256');
  if (j.input?.sheet !== undefined) found.push('job input.sheet');
  if (typeof j.input?.path === 'string' && !isPublicInputName(j.input.path)) found.push(`job input.path names the input file (${isBareName(j.input.path) ? 'its name' : 'a folder'})`);
  if (j.output?.internalDir !== undefined) found.push('job output.internalDir');
  if (!isBareName(j.output?.dir)) found.push('job output.dir names a folder');
  const variant = j.output?.variant;
  if (variant === 'internal' || (Array.isArray(variant) && variant.includes('internal'))) found.push('job output.variant says "internal"');
  const hierarchies = j.method?.hierarchies;
  if (typeof hierarchies === 'object' && hierarchies !== null) {
    for (const [column, spec] of Object.entries(hierarchies)) if (typeof spec === 'string' && !isPublicHierarchyName(spec)) found.push(`job hierarchy of “${column}” names its file`);
  }
  return found;
}

/** The exact count as a whole number in any of the ways the renderings print it. */
function countPattern(n: number): RegExp {
  const plain = String(n);
  const grouped = n.toLocaleString('en-US');
  const alternatives = [...new Set([plain, grouped])].map((s) => s.replace(/[,.]/g, '\\$&'));
  return new RegExp(`(?<![\\d.,])(?:${alternatives.join('|')})(?![\\d]|[.,]\\d)`);
}

/** Counts below this are too common as numbers to search for without false alarms (k, ε digits, sizes). */
const SMALLEST_SEARCHED_COUNT = 1000;

/**
 * Why the release folder may not be published as it is, one line per problem:
 * an internal report or its mark, internal-only fields in report.json or
 * job.json, and — when the internal report is at hand — the input's checksum,
 * its path or (for differentially private methods) its exact record count
 * anywhere in the report files.
 */
export function publishabilityProblems(dir: string, report: Report, job: unknown, facts: ConfidentialFacts): string[] {
  // The external report's schema is the list of what may be published: any other field is internal.
  const parsed = parseReport(report, 'external');
  const problems: string[] = [...(parsed.ok ? [] : parsed.problems.map((p) => `report.json has ${p}`)), ...internalFieldsOfJob(job).map((f) => `job.json has ${f}`)];
  const dp = isDifferentiallyPrivate(report.method?.type ?? '');
  const count = dp && facts.rows !== undefined && facts.rows >= SMALLEST_SEARCHED_COUNT ? countPattern(facts.rows) : null;
  const names = readdirSync(dir);
  // The file name is searched in the report files only, and only when no release file shares it.
  const base = facts.path ? basename(facts.path) : '';
  const inputName = base.length >= 5 && !names.includes(base) && !isPublicInputName(base.toLowerCase()) ? base : undefined;
  for (const name of names) {
    let parts: SearchablePart[];
    try {
      parts = searchableText(join(dir, name));
    } catch (error) {
      problems.push(`${name} cannot be read to check it (${(error as Error).message})`);
      continue;
    }
    const text = parts.map((p) => p.text).join('\n');
    if (text.includes(CONFIDENTIAL_MARK) || text.includes('CONFIDENTIAL internal') || /"variant":\s*"internal"/.test(text) || text.includes('custos.report/1 internal')) {
      problems.push(`${name} holds (part of) an internal report`);
    }
    // Case and separators vary by how a hash or a path is printed; search them loosely.
    const lower = text.toLowerCase();
    if (facts.sha256 && (lower.includes(facts.sha256.toLowerCase()) || lower.replace(/[\s:-]/g, '').includes(facts.sha256.toLowerCase()))) problems.push(`${name} contains the input's SHA-256`);
    if (facts.path && text.includes(facts.path)) problems.push(`${name} contains the input's path`);
    else if (facts.path && dirname(facts.path).length > 3 && text.includes(dirname(facts.path))) problems.push(`${name} contains the folder of the input`);
    else if (inputName && /^report\.|^job\.json$/.test(name) && text.includes(inputName)) problems.push(`${name} contains the input's file name`);
    // Released data may hold any number; the exact size is searched in the report files only.
    const reportText = /^report\.|^job\.json$/.test(name) ? text : parts.filter((p) => p.sheet !== null && REPORT_SHEETS.has(p.sheet)).map((p) => p.text).join('\n');
    if (count && count.test(reportText)) problems.push(`${name} states the input's exact record count, which differential privacy does not cover`);
  }
  return problems;
}

/** The workbook's report sheets; its data sheets, like the CSV files, may hold any number. */
const REPORT_SHEETS = new Set(['Report', 'Parameters', 'Checksums']);
