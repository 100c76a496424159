import type { ZodIssue } from 'zod';

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
