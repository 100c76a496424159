/**
 * `custos init FILE --method IDENTITY,ATTRIBUTE`: a chain's job skeleton from each step's own
 * (src/jobs/job-skeleton.ts). The roles, the input and the attribute step are the attribute method's
 * skeleton (it chooses the sensitive column and proposes its domain); the identity step is the
 * identity method's skeleton without any sensitive column among the columns it names (the chain
 * refuses an identity step that changes the value the second step protects). The notes say both.
 */
import { HELP_KEY } from '../../common/job/job-notes.js';
import { chainTypeProblem, type ChainProblem } from '../../mechanisms/chain.js';
import { definitionOf, isMechanismType, type MechanismType } from '../../mechanisms/definitions.js';
import { jobSkeleton, type SkeletonInput } from '../job-skeleton.js';
import { formatCount } from '../../common/format/numbers.js';

/** The two steps `--method A,B` names, or why they make no chain (the rules of src/mechanisms/chain.ts that need only the types). */
export function chainMethods(types: readonly string[]): { steps: readonly [MechanismType, MechanismType] } | { problem: ChainProblem } {
  const typed = types.map((type) => ({ type }));
  const problem = chainTypeProblem(typed);
  if (problem) return { problem };
  const [identity, attribute] = types;
  if (!isMechanismType(identity!) || !isMechanismType(attribute!)) return { problem: { key: 'method', message: 'name two methods' } };
  return { steps: [identity, attribute] };
}

type Record_ = Record<string, unknown>;

/** The bands init proposes for a whole-number quasi-identifier without a hierarchy (nested: each width a multiple of the one before). */
const NUMBER_BANDS = { type: 'interval', widths: [5, 10, 20] } as const;

const notes = (section: unknown): string[] => {
  const help = (section as Record_)[HELP_KEY];
  return Array.isArray(help) ? (help as string[]) : typeof help === 'string' ? [help] : [];
};

export function chainSkeleton(input: SkeletonInput, [identity, attribute]: readonly [MechanismType, MechanismType]): Record<string, unknown> {
  const first = jobSkeleton(input, identity);
  const second = jobSkeleton(input, attribute);
  const attributes = second['attributes'] as Record<string, string>;
  const sensitive = new Set(Object.entries(attributes).filter(([, role]) => role === 'sensitive').map(([name]) => name));
  const identityMethod = { ...(first['method'] as Record_) };
  // The identity step leaves the sensitive column as collected: no column of its own, no hierarchy, names it.
  const columns = identityMethod['columns'];
  const dropped: string[] = [];
  if (Array.isArray(columns)) {
    identityMethod['columns'] = columns.filter((c: string) => !sensitive.has(c));
    dropped.push(...columns.filter((c: string) => sensitive.has(c)));
  }
  const hierarchies = identityMethod['hierarchies'];
  if (hierarchies && typeof hierarchies === 'object') {
    identityMethod['hierarchies'] = Object.fromEntries(Object.entries(hierarchies).filter(([name]) => !sensitive.has(name)));
  }
  // A number the identity step recodes without a hierarchy can only be kept or suppressed whole: a first proposal of bands, said in a note.
  const banded: string[] = [];
  if (definitionOf(identity).recodes) {
    const given = (identityMethod['hierarchies'] ?? {}) as Record_;
    const proposed = input.columns.filter((c) => attributes[c.name] === 'quasi' && c.type === 'integer' && c.distinct > 1 && !Object.hasOwn(given, c.name)).map((c) => c.name);
    banded.push(...proposed);
    identityMethod['hierarchies'] = Object.fromEntries([...Object.entries(given), ...proposed.map((name) => [name, { ...NUMBER_BANDS }] as const)]);
  }
  const [, ...secondNotes] = notes(second);
  const [sensitiveLine, ...rest] = secondNotes;
  // The attribute method alone would ask to recode the quasi-identifiers before release: in a chain the identity step does.
  const kept = rest.filter((line) => !line.startsWith('RECODE '));
  const fromFirst = notes(first).slice(1).filter((line) => !secondNotes.includes(line) && !line.startsWith('Sensitive:') && !line.startsWith('No column looks sensitive') && !line.includes('protects one column'));
  const titles = [definitionOf(identity).metadata.title, definitionOf(attribute).metadata.title];
  return {
    [HELP_KEY]: [
      `A job for ${input.path} (${formatCount(input.rows)} records) with a chain of two methods, written by custos init: ${titles[0]} protects identity on the quasi-identifiers, then ${titles[1]} protects the sensitive value within the groups it released. Check every role and parameter, then run: custos assess job.json, custos run job.json.`,
      ...(sensitiveLine ? [sensitiveLine] : []),
      ...fromFirst,
      ...(dropped.length > 0 ? [`${dropped.join(', ')} ${dropped.length === 1 ? 'is' : 'are'} sensitive, so the identity step leaves ${dropped.length === 1 ? 'it' : 'them'} as collected (method[0].columns names ${dropped.length === 1 ? 'it' : 'them'} no more): the second step protects ${dropped.length === 1 ? 'it' : 'them'}.`] : []),
      ...(banded.length > 0 ? [`BANDS ${banded.join(', ')}: numbers among the quasi-identifiers; method[0].hierarchies proposes bands of ${NUMBER_BANDS.widths.join(', ')} for each (then the value withheld): set widths that suit each column's range.`] : []),
      ...kept,
    ],
    version: 1,
    input: second['input'],
    attributes,
    method: [identityMethod, second['method']],
    output: second['output'],
  };
}
