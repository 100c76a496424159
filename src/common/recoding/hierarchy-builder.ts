/**
 * The wizard's hierarchy builder, as pure functions: named groups level by level (municipality →
 * region → country), a pasted mapping, ages from birth dates, read as the rows of an ARX hierarchy
 * table (the value, then what it becomes at each level, "*" last). The table is written as the ARX
 * CSV file the job already accepts (`method.hierarchies.COLUMN: "file.csv"`), so the command line
 * reads what the wizard built. Every refusal names the values and the cause in words.
 */
import { dateHierarchy, intervalHierarchy } from './hierarchy.js';
import { hierarchySpec } from './hierarchy-spec.js';
import { ISO_DATE } from '../table/table.js';

/** One named group of a level: its members are the column's values (level 1) or the groups of the level below. */
export interface Group {
  readonly name: string;
  readonly members: readonly string[];
}

/** The groups of the levels above the values, finest first. */
export type GroupLevels = readonly (readonly Group[])[];

/** The top of every hierarchy: what a fully generalized value reads. */
export const TOP = '*';

export type Built = { readonly ok: true; readonly rows: string[][] } | { readonly ok: false; readonly problems: string[] };

function quoted(values: readonly string[], limit = 8): string {
  const shown = values.slice(0, limit).map((v) => `“${v}”`).join(', ');
  return values.length > limit ? `${shown} and ${values.length - limit} more` : shown;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What the members of a level are: the column's values for level 1, the groups of the level below above it. */
function membersOf(values: readonly string[], levels: GroupLevels, level: number): readonly string[] {
  return level === 0 ? values : levels[level - 1]!.map((g) => g.name);
}

/** Words for a level: "level 1 (groups of the values)". */
export function levelName(level: number): string {
  return `level ${level + 1}`;
}

/**
 * The problems of the groups in words: every value (every group of the level below) in exactly one
 * group, every group named once and holding something. Empty when the groups make a hierarchy.
 */
export function groupProblems(column: string, values: readonly string[], levels: GroupLevels): string[] {
  const problems: string[] = [];
  if (levels.length === 0) return [`no groups yet for “${column}”: type a group's name and assign values to it`];
  levels.forEach((groups, level) => {
    const where = levelName(level);
    const items = membersOf(values, levels, level);
    const known = new Set(items);
    if (groups.length === 0) problems.push(`${where} has no groups yet: add one, or remove the level`);
    const names = new Map<string, number>();
    for (const g of groups) {
      const name = g.name.trim();
      if (name === '') problems.push(`a group of ${where} has no name: type one`);
      else if (name === TOP) problems.push(`a group of ${where} is named “${TOP}”, which is the top of every hierarchy (what a fully generalized value reads): name it otherwise`);
      names.set(name, (names.get(name) ?? 0) + 1);
      if (g.members.length === 0) problems.push(`the group “${name}” of ${where} holds nothing: assign ${level === 0 ? 'values' : 'groups of the level below'} to it, or remove it`);
    }
    const twice = [...names].filter(([name, n]) => n > 1 && name !== '').map(([name]) => name);
    if (twice.length > 0) problems.push(`${where} has more than one group named ${quoted(twice)}: rename or merge them`);
    const groupOf = new Map<string, string[]>();
    for (const g of groups) for (const m of g.members) groupOf.set(m, [...(groupOf.get(m) ?? []), g.name.trim()]);
    const unknown = [...groupOf.keys()].filter((m) => !known.has(m));
    if (unknown.length > 0) problems.push(`${where} groups ${count(unknown.length, level === 0 ? 'value' : 'name', level === 0 ? 'values' : 'names')} that ${level === 0 ? `“${column}” does not hold` : 'are no group of the level below'}: ${quoted(unknown)}; remove ${unknown.length === 1 ? 'it' : 'them'} from ${unknown.length === 1 ? 'its group' : 'their groups'}`);
    for (const [member, inGroups] of groupOf) {
      if (inGroups.length > 1) problems.push(`“${member}” is in ${inGroups.length} groups of ${where} (${quoted(inGroups)}): a ${level === 0 ? 'value' : 'group'} generalizes to one group only, so keep it in one`);
    }
    const unassigned = items.filter((v) => !groupOf.has(v));
    if (unassigned.length > 0) {
      problems.push(
        `${count(unassigned.length, level === 0 ? `value of “${column}” is` : `group of ${levelName(level - 1)} is`, level === 0 ? `values of “${column}” are` : `groups of ${levelName(level - 1)} are`)} in no group of ${where}: ${quoted(unassigned)}; every ${level === 0 ? 'value' : 'group'} needs a group, or it has no path to the top`,
      );
    }
  });
  return problems;
}

/** The ARX rows of the groups: each value, its group at each level, then "*"; or the problems in words. */
export function categoryRows(column: string, values: readonly string[], levels: GroupLevels): Built {
  const problems = groupProblems(column, values, levels);
  if (problems.length > 0) return { ok: false, problems };
  const up = levels.map((groups) => {
    const m = new Map<string, string>();
    for (const g of groups) for (const member of g.members) m.set(member, g.name.trim());
    return m;
  });
  const rows = values.map((value) => {
    const row = [value];
    let current = value;
    for (const m of up) {
      current = m.get(current)!;
      row.push(current);
    }
    row.push(TOP);
    return row;
  });
  return { ok: true, rows };
}

/**
 * Assigns members to a group of a level (created when new), taking them out of any other group of
 * that level: a multi-select followed by "assign" moves the values, as a person expects.
 */
export function assign(levels: GroupLevels, level: number, group: string, members: readonly string[]): GroupLevels {
  const name = group.trim();
  const moving = new Set(members);
  const groups = (levels[level] ?? []).map((g) => ({ name: g.name, members: g.members.filter((m) => !moving.has(m)) }));
  const target = groups.find((g) => g.name.trim() === name);
  if (target) target.members = [...target.members, ...members.filter((m) => !target.members.includes(m))];
  else groups.push({ name, members: [...moving] });
  const out = [...levels];
  out[level] = groups;
  return out;
}

/** The groups without one of a level (its members are unassigned again; groups above that held it lose it). */
export function removeGroup(levels: GroupLevels, level: number, group: string): GroupLevels {
  return levels.map((groups, l) => (l === level ? groups.filter((g) => g.name !== group) : l === level + 1 ? groups.map((g) => ({ name: g.name, members: g.members.filter((m) => m !== group) })) : groups));
}

/** A group renamed, and every reference to it from the level above. */
export function renameGroup(levels: GroupLevels, level: number, from: string, to: string): GroupLevels {
  return levels.map((groups, l) => (l === level ? groups.map((g) => (g.name === from ? { ...g, name: to } : g)) : l === level + 1 ? groups.map((g) => ({ name: g.name, members: g.members.map((m) => (m === from ? to : m)) })) : groups));
}

/** The separator of a pasted mapping: a tab where any line has one (a spreadsheet's copy), else ";", else ",". */
function separatorOf(lines: readonly string[]): string {
  if (lines.some((l) => l.includes('\t'))) return '\t';
  if (lines.some((l) => l.includes(';'))) return ';';
  return ',';
}

export type ReadMapping = { readonly ok: true; readonly levels: GroupLevels } | { readonly ok: false; readonly problems: string[] };

/**
 * A pasted mapping read as groups: one line per value, the value then its group at each level
 * ("Oslo;Østlandet;Norway"), separated by tabs (copied from a spreadsheet), ";" or ",". A last
 * column of "*" only is the top and is left out. Known values, when given, are checked: a value the
 * column does not hold, a value given twice, a group put in two groups above, are named with their lines.
 */
export function readMapping(column: string, text: string, known?: readonly string[]): ReadMapping {
  const numbered = text.split(/\r\n|\n|\r/).map((line, i) => ({ line: i + 1, text: line })).filter((l) => l.text.trim() !== '');
  if (numbered.length === 0) return { ok: false, problems: ['the mapping is empty: paste one line per value, the value then its group (e.g. “Oslo;Østlandet;Norway”)'] };
  const sep = separatorOf(numbered.map((l) => l.text));
  return groupsOfLines(column, numbered.map((l) => ({ line: l.line, fields: l.text.split(sep).map((f) => f.trim()) })), known);
}

/**
 * The rows of a hierarchy file (one per value, coarser to the right, "*" last) read back as groups,
 * so a hierarchy the builder saved can be edited again after a reload: the same checks as a pasted
 * mapping, the row's number standing for its line.
 */
export function levelsOfRows(column: string, rows: readonly (readonly string[])[], known?: readonly string[]): ReadMapping {
  if (rows.length === 0) return { ok: false, problems: ['the hierarchy file holds no rows'] };
  return groupsOfLines(column, rows.map((fields, i) => ({ line: i + 1, fields: fields.map((f) => f.trim()) })), known);
}

function groupsOfLines(column: string, rows: readonly { readonly line: number; readonly fields: readonly string[] }[], known: readonly string[] | undefined): ReadMapping {
  const problems: string[] = [];
  const width = rows[0]!.fields.length;
  if (width < 2) return { ok: false, problems: [`line ${rows[0]!.line} holds no group: write the value, then its group, separated by a tab, “;” or “,”`] };
  const uneven = rows.filter((r) => r.fields.length !== width);
  if (uneven.length > 0) problems.push(`${count(uneven.length, 'line has', 'lines have')} another number of levels than line ${rows[0]!.line} (${width - 1}): line ${uneven.slice(0, 8).map((r) => r.line).join(', ')}`);
  const even = rows.filter((r) => r.fields.length === width);
  const depth = even.every((r) => r.fields[width - 1] === TOP) ? width - 1 : width;
  if (depth < 2) return { ok: false, problems: ['the mapping has no level between the values and “*”: write the value, then its group'] };
  const empty = even.filter((r) => r.fields.slice(0, depth).some((f) => f === ''));
  if (empty.length > 0) problems.push(`${count(empty.length, 'line has', 'lines have')} an empty field: line ${empty.slice(0, 8).map((r) => r.line).join(', ')}`);
  const firstLine = new Map<string, number>();
  const twice: string[] = [];
  for (const r of even) {
    const v = r.fields[0]!;
    const earlier = firstLine.get(v);
    if (earlier !== undefined) twice.push(`“${v}” (lines ${earlier} and ${r.line})`);
    else firstLine.set(v, r.line);
  }
  if (twice.length > 0) problems.push(`${count(twice.length, 'value is', 'values are')} given twice: ${twice.slice(0, 8).join(', ')}; give each value once`);
  if (known) {
    const holds = new Set(known);
    const strangers = even.filter((r) => !holds.has(r.fields[0]!));
    if (strangers.length > 0) problems.push(`${count(strangers.length, `value is`, 'values are')} not in “${column}”: ${strangers.slice(0, 8).map((r) => `“${r.fields[0]}” (line ${r.line})`).join(', ')}${strangers.length > 8 ? ` and ${strangers.length - 8} more` : ''}; correct the spelling or leave the line out`);
  }
  const levels: Group[][] = [];
  for (let level = 1; level < depth; level++) {
    const byGroup = new Map<string, string[]>();
    const parentOf = new Map<string, { group: string; line: number }>();
    for (const r of even) {
      const member = r.fields[level - 1]!;
      const group = r.fields[level]!;
      if (member === '' || group === '') continue;
      const seen = parentOf.get(member);
      if (seen && seen.group !== group && level > 1) {
        problems.push(`the group “${member}” is put in “${seen.group}” on line ${seen.line} and in “${group}” on line ${r.line}: a group belongs to one group of the level above`);
        continue;
      }
      if (seen) continue;
      parentOf.set(member, { group, line: r.line });
      byGroup.set(group, [...(byGroup.get(group) ?? []), member]);
    }
    levels.push([...byGroup].map(([name, members]) => ({ name, members })));
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, levels };
}

/** One node of a tree preview: a label, how many records it holds (when known), its children. */
export interface TreeNode {
  readonly label: string;
  readonly records: number;
  readonly children: TreeNode[];
}

/**
 * The tree of a hierarchy's rows, the top first ("*" → countries → regions → municipalities), each
 * node with the records its values hold (from `counts`, 0 where unknown).
 */
export function treeOf(rows: readonly (readonly string[])[], counts?: ReadonlyMap<string, number>): TreeNode {
  const root: TreeNode = { label: rows[0]?.[rows[0].length - 1] ?? TOP, records: 0, children: [] };
  const index = new Map<string, TreeNode>();
  for (const row of rows) {
    const n = counts?.get(row[0]!) ?? 0;
    let node = root;
    (node as { records: number }).records += n;
    let path = '';
    for (let level = row.length - 2; level >= 0; level--) {
      path += `\u0000${row[level]}`;
      let child = index.get(path);
      if (!child) {
        child = { label: row[level]!, records: 0, children: [] };
        index.set(path, child);
        node.children.push(child);
      }
      (child as { records: number }).records += n;
      node = child;
    }
  }
  return root;
}

/** The rows of the date hierarchy for a column's values (ISO dates): day, year-month, year, decade, "*"; values that are no dates are named. */
export function dateRows(values: readonly string[]): { rows: string[][]; notDates: string[] } {
  const h = dateHierarchy();
  const rows: string[][] = [];
  const notDates: string[] = [];
  for (const v of values) {
    const row = Array.from({ length: h.depth }, (_, level) => h.generalize(v, level));
    if (row.some((x) => x === undefined)) notDates.push(v);
    else rows.push(row as string[]);
  }
  return { rows, notDates };
}

/** Full years between a birth date and a reference date (both ISO yyyy-mm-dd): the age as people state it. */
export function ageAt(birth: string, reference: string): number {
  const [by, bm, bd] = [Number(birth.slice(0, 4)), Number(birth.slice(5, 7)), Number(birth.slice(8, 10))];
  const [ry, rm, rd] = [Number(reference.slice(0, 4)), Number(reference.slice(5, 7)), Number(reference.slice(8, 10))];
  return ry - by - (rm < bm || (rm === bm && rd < bd) ? 1 : 0);
}

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a text is a calendar date written yyyy-mm-dd (2023-02-30 is not). */
export function isCalendarDate(text: string): boolean {
  const m = ISO_DAY.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/**
 * Age from a birth date, as a hierarchy on the date column (Custos has no derived columns): each
 * birth date, its age in full years at the reference date, the age's band at each width ("30-34",
 * "30-39"), then "*". The widths follow the job's interval rule (whole numbers ≥ 2, each a multiple
 * of the one before). Values that are no dates, or born after the reference date, are named.
 */
export function ageRows(column: string, values: readonly string[], reference: string, widths: readonly number[]): Built {
  const problems: string[] = [];
  if (!isCalendarDate(reference)) problems.push(`the reference date “${reference}” is not a date written yyyy-mm-dd (e.g. 2026-01-01)`);
  const parsed = hierarchySpec.safeParse({ type: 'interval', widths: [...widths] });
  if (!parsed.success || widths.length === 0) problems.push(`the age bands ${widths.join(', ') || '(none)'} are not whole numbers ≥ 2 each a multiple of the one before (e.g. 5, 10, 20)`);
  if (problems.length > 0) return { ok: false, problems };
  const bands = intervalHierarchy(widths);
  const notDates = values.filter((v) => !ISO_DATE.test(v));
  if (notDates.length > 0) problems.push(`${count(notDates.length, `value of “${column}” is`, `values of “${column}” are`)} not read as dates: ${quoted(notDates)}; state the column's date format on the Columns step, or add them to the missing-value codes`);
  const dated = values.filter((v) => ISO_DATE.test(v));
  const later = dated.filter((v) => ageAt(v.slice(0, 10), reference) < 0);
  if (later.length > 0) problems.push(`${count(later.length, 'date is', 'dates are')} after the reference date ${reference}: ${quoted(later)}; choose a later reference date`);
  if (problems.length > 0) return { ok: false, problems };
  const rows = dated.map((v) => {
    const age = String(ageAt(v.slice(0, 10), reference));
    return [v, age, ...widths.map((_, i) => bands.generalize(age, i + 1)!), TOP];
  });
  return { ok: true, rows };
}

/** How a field of the ARX CSV is written: quoted when it holds a separator, a quote or a line break. */
function csvField(value: string): string {
  return /[;,\t|"\r\n]/.test(value) || value !== value.trim() ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The rows as an ARX hierarchy CSV (";" between levels, no header), as the job's hierarchy files are read. */
export function hierarchyCsv(rows: readonly (readonly string[])[]): string {
  return rows.map((r) => r.map(csvField).join(';')).join('\n') + '\n';
}

/** The name proposed for a built hierarchy's file: beside the input, after the input and the column. */
export function proposedHierarchyPath(inputPath: string, column: string): string {
  const cut = Math.max(inputPath.lastIndexOf('/'), inputPath.lastIndexOf('\\'));
  const dir = cut >= 0 ? inputPath.slice(0, cut + 1) : '';
  const stem = inputPath.slice(cut + 1).replace(/\.[^.]*$/, '');
  const safe = column.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '') || 'column';
  return `${dir}${stem}-${safe}-hierarchy.csv`;
}

/** Whole numbers among a column's values, as numbers (for the top/bottom coding slider); the rest named. */
export function wholeNumbers(values: readonly string[]): { numbers: number[]; others: string[] } {
  const numbers: number[] = [];
  const others: string[] = [];
  for (const v of values) {
    const t = v.trim();
    if (/^-?\d+$/.test(t) && Number.isSafeInteger(Number(t))) numbers.push(Number(t));
    else others.push(v);
  }
  return { numbers, others };
}

/** How many records top and bottom coding change: values ≥ top and values < bottom (counts by value). */
export function codedRecords(counts: ReadonlyMap<string, number>, bottom: number | undefined, top: number | undefined): { below: number; above: number } {
  let below = 0;
  let above = 0;
  for (const [value, n] of counts) {
    const x = Number(value);
    if (!/^-?\d+$/.test(value.trim())) continue;
    if (bottom !== undefined && x < bottom) below += n;
    if (top !== undefined && x >= top) above += n;
  }
  return { below, above };
}
