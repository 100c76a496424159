/** Names Stata reserves: they cannot name a variable. */
const RESERVED = new Set(['_all', '_b', 'byte', '_coef', '_cons', 'double', 'float', 'if', 'in', 'int', 'long', '_n', '_N', '_pi', '_pred', '_rc', '_skip', 'strL', 'using', 'with']);
const MAX_NAME_CHARACTERS = 32;

/**
 * Stata variable names for the columns, in order: a name Stata accepts is kept; any other is made
 * valid (characters other than letters, digits and "_" become "_", a name starting with a digit
 * gets a "_" in front, reserved words and str# get a "_" after, at most 32 characters) and unique
 * (Stata's names are case-sensitive). The writer keeps a changed name as the variable label.
 */
export function stataVariableNames(columns: readonly string[]): string[] {
  const taken = new Set<string>();
  return columns.map((column) => {
    const base = validName(column);
    let name = base;
    for (let n = 2; taken.has(name); n++) name = [...base].slice(0, MAX_NAME_CHARACTERS - String(n).length - 1).join('') + `_${n}`;
    taken.add(name);
    return name;
  });
}

function validName(column: string): string {
  let name = [...column.normalize('NFC')].map((ch) => (/[\p{L}\p{N}_]/u.test(ch) ? ch : '_')).join('');
  if (name === '' || /^\p{N}/u.test(name)) name = `_${name}`;
  name = [...name].slice(0, MAX_NAME_CHARACTERS).join('');
  if (RESERVED.has(name) || /^str\d+$/.test(name)) name = `${[...name].slice(0, MAX_NAME_CHARACTERS - 1).join('')}_`;
  return name;
}
