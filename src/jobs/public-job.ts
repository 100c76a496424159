import { basename, extname } from 'node:path';
import type { DomainSpec } from '../common/job/job-parts.js';
import { named, own } from '../common/job/names.js';
import type { Job } from '../mechanisms/definitions.js';

/** A generic name that keeps only the file's format: `stem` plus its extension, when it looks like one. */
function genericName(stem: string, path: string): string {
  const extension = extname(basename(path)).toLowerCase();
  return `${stem}${/^\.[a-z0-9]{1,8}$/.test(extension) ? extension : ''}`;
}

/**
 * The name the public job gives the input. A file name is the custodian's label for the
 * data ("hiv-cases-2025.csv") and can say what the file holds; only its format stays.
 */
export const publicInputName = (path: string): string => genericName('input', path);

/** The name the public job gives a hierarchy file: the column says which it is; its own name may name the data. */
export const publicHierarchyName = (path: string): string => genericName('hierarchy', path);

/**
 * The job as the release folder describes it: every parameter of the method and the roles of the
 * released columns, but no identifier column (it is removed: its name is a fact of the input the
 * release does not need), no input checksum (a membership oracle for anyone holding a candidate file), no sheet name,
 * no file or folder names of the input, its hierarchies or the release folder (they tell where the confidential
 * data lives and what it is), no pointer to the internal report, and the report variant it
 * sits beside. The internal folder keeps the job that reproduces the run.
 */
export function publicJob(job: Job): Job {
  const { sha256: _sha256, sheet: _sheet, ...input } = job.input;
  const { internalDir: _internalDir, ...output } = job.output;
  const method = job.method;
  const withHierarchyNames =
    'hierarchies' in method
      ? {
          ...method,
          hierarchies: Object.fromEntries(Object.entries(method.hierarchies).map(([column, spec]) => [column, typeof spec === 'string' ? publicHierarchyName(spec) : spec])),
        }
      : method;
  // A domain read from a hierarchy file: the file's name goes the way of the other hierarchies'.
  const domains = 'domains' in method && method.domains ? method.domains : undefined;
  const withDomainNames = domains
    ? { ...withHierarchyNames, domains: named(Object.entries(domains).map(([column, spec]): [string, DomainSpec] => [column, typeof spec === 'object' && !Array.isArray(spec) ? { hierarchy: publicHierarchyName(spec.hierarchy) } : spec])) }
    : withHierarchyNames;
  // Names are data: a null-prototype record, as the job parser makes it (a column may be called "__proto__").
  const attributes = Object.create(null) as Record<string, Job['attributes'][string]>;
  for (const [name, role] of Object.entries(job.attributes)) if (role !== 'identifier') attributes[name] = role;
  // The custodian's reasons for accepting a failed review check are theirs: the published job names the checks only.
  const review = job.review ? { ...job.review, acknowledge: job.review.acknowledge.map((a) => ({ check: a.check, reason: 'given in the internal report' })) } : undefined;
  // The date format of an identifier column would name it too.
  const dates = input.dates ? named(Object.entries(input.dates).filter(([name]) => own(job.attributes, name) !== 'identifier')) : undefined;
  return {
    ...job,
    ...(review ? { review } : {}),
    input: { ...input, path: publicInputName(job.input.path), ...(dates ? { dates } : {}) },
    attributes,
    method: withDomainNames as Job['method'],
    // The release folder's name is the custodian's too (the wizard derives it from the input's name).
    output: { ...output, dir: 'release', variant: ['external'] },
  };
}
