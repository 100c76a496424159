import type { ZodIssue } from 'zod';
import { own } from '../../common/job/names.js';
import { metadataOf } from '../../mechanisms/definitions.js';

/**
 * A schema message in the words a person needs next to a field. The job
 * schema's own messages already say what is wrong ("epsilon must be > 0");
 * zod's generic ones name types and keys, which are rewritten here.
 */
export function plainMessage(issue: ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'integer') return 'enter a whole number';
      if (issue.received === 'nan' || issue.expected === 'number') return 'enter a number';
      if (issue.received === 'undefined') return 'required';
      return `enter a ${issue.expected}`;
    case 'too_small':
      if (issue.type === 'array') return issue.minimum === 1 ? 'choose at least one' : `choose at least ${String(issue.minimum)}`;
      if (issue.type === 'string') return 'required';
      if (/^Number must be/.test(issue.message)) return `must be ${issue.inclusive ? 'at least' : 'more than'} ${String(issue.minimum)}`;
      return issue.message;
    case 'too_big':
      if (/^Number must be/.test(issue.message)) return `must be ${issue.inclusive ? 'at most' : 'less than'} ${String(issue.maximum)}`;
      return issue.message;
    case 'invalid_enum_value':
      return `choose one of ${issue.options.join(', ')}`;
    case 'unrecognized_keys':
      return `not a setting of this method: ${issue.keys.join(', ')}`;
    default:
      return issue.message;
  }
}

const isTypeMismatch = (issue: ZodIssue, at: readonly (string | number)[]): boolean => {
  const same = issue.path.length === at.length && issue.path.every((p, i) => p === at[i]);
  const onType = issue.path.length === at.length + 1 && issue.path[at.length] === 'type';
  return (same && (issue.code === 'invalid_type' || issue.code === 'invalid_literal')) || onType;
};

/**
 * The issues as a person would fix them: a union (a number or "auto"; an interval or a masking
 * hierarchy) is replaced by the issues of the branch whose shape the value has, so the message
 * says "k must be at least 2", not "Invalid input".
 */
export function specificIssues(issues: readonly ZodIssue[]): ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union') return [issue];
    const all = issue.unionErrors.map((e) => e.issues);
    // The branch the value was meant for: its type matched, and it has the fewest complaints.
    const fitting = all.filter((list) => !list.some((i) => isTypeMismatch(i, issue.path))).sort((a, b) => a.length - b.length);
    const branch = fitting[0] ?? all[0];
    return branch ? specificIssues(branch) : [issue];
  });
}

const PARAMETER_NAMES: Readonly<Record<string, string>> = {
  epsilon: 'ε',
  delta: 'δ',
  retention: 'the retention',
  rho1: 'ρ1',
  rho2: 'ρ2',
  k: 'k',
  sampling: 'the sampling rate',
  beta: 'β',
  maxBucket: 'the largest bucket',
  minBucket: 'the smallest bucket',
  fakeValues: 'the fake values',
  columns: 'the columns',
  parts: 'the parts',
  target: 'the target (ε, δ)',
  searchEpsilon: 'the search budget',
  algorithm: 'the algorithm',
  unprotectable: 'unprotectable groups',
  models: 'the privacy model',
  suppressionLimit: 'the suppression limit',
  measure: 'the utility measure',
  localSuppression: 'local suppression',
};

/**
 * The field a job key names, as the wizard calls it ("method.hierarchies.age" → the hierarchy of “age”);
 * `method` is the method type the key belongs to, for keys that name different fields in different methods.
 */
export function fieldName(key: string, method?: string): string {
  const parameter = key.replace(/^method\./, '').split(/[.[]/)[0]!;
  // Where one key means different fields in different methods, the method's own name for it (its metadata's fieldNames).
  const ownName = key.startsWith('method.') && method ? ownFieldName(method, parameter) : undefined;
  const named = (prefix: string, words: string): string | undefined => (key.startsWith(prefix) ? `${words} of “${key.slice(prefix.length)}”` : undefined);
  return (
    named('method.hierarchies.', 'the hierarchy') ??
    named('method.levels.', 'the level') ??
    named('method.domains.', 'the public values') ??
    named('attributes.', 'the role') ??
    (key === 'attributes' ? 'the roles' : undefined) ??
    (key.startsWith('input') ? 'the file' : undefined) ??
    (key === '--out' || key === 'output.dir' ? 'the release folder' : undefined) ??
    (key === '--internal' || key === 'output.internalDir' ? 'the internal report folder' : undefined) ??
    (key.startsWith('output') ? 'the outputs' : undefined) ??
    ownName ??
    own(PARAMETER_NAMES, parameter) ??
    'a setting'
  );
}

function ownFieldName(method: string, parameter: string): string | undefined {
  const names = metadataOf(method)?.fieldNames;
  return names ? own(names, parameter) : undefined;
}

/**
 * A failure from the host in the wizard's words: the job key the command line prints first
 * ("method.hierarchies.age: …") becomes the field's name, as the method it belongs to calls it.
 */
export function plainFailure(failure: { readonly message: string; readonly key?: string | undefined }, method?: string): string {
  const { message, key } = failure;
  if (!key) return sentence(message);
  const rest = message.startsWith(`${key}: `) ? message.slice(key.length + 2) : message;
  const field = fieldName(key, method);
  // Words start the sentence with a capital; a symbol (ε, k) keeps its case.
  const start = /^(the|a) /.test(field) ? `${field.charAt(0).toUpperCase()}${field.slice(1)}` : field;
  return sentence(`${start}: ${rest}`);
}

/** The engine's messages are clauses (they end in a path or a value); shown alone, they end as a sentence. */
function sentence(text: string): string {
  return /[.!?…)”"]$/.test(text.trimEnd()) ? text : `${text.trimEnd()}.`;
}
