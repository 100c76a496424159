import { truncateUtf8 } from './statistical-values.js';

/** Words SPSS reserves: they cannot name a variable. */
const RESERVED = new Set(['ALL', 'AND', 'BY', 'EQ', 'GE', 'GT', 'LE', 'LT', 'NE', 'NOT', 'OR', 'TO', 'WITH']);
const MAX_NAME_BYTES = 64;

/**
 * SPSS variable names for the columns, in order: a name SPSS accepts is kept; any other is made
 * valid (characters SPSS does not allow become "_", a name that does not start with a letter gets
 * a "v" in front, reserved words and names ending in "." get a "_", at most 64 bytes) and unique
 * regardless of case. The writer keeps a changed name as the variable label.
 */
export function spssVariableNames(columns: readonly string[]): string[] {
  const taken = new Set<string>();
  return columns.map((column) => {
    const base = validName(column);
    let name = base;
    for (let n = 2; taken.has(name.toUpperCase()); n++) name = truncateUtf8(base, MAX_NAME_BYTES - String(n).length - 1) + `_${n}`;
    taken.add(name.toUpperCase());
    return name;
  });
}

function validName(column: string): string {
  let name = [...column.normalize('NFC')].map((ch) => (/[\p{L}\p{N}_.@#$]/u.test(ch) ? ch : '_')).join('');
  if (!/^\p{L}/u.test(name)) name = `v${name}`;
  name = truncateUtf8(name, MAX_NAME_BYTES);
  if (name.endsWith('.')) name = `${truncateUtf8(name, MAX_NAME_BYTES - 1)}_`;
  if (RESERVED.has(name.toUpperCase())) name = `${name}_`;
  return name;
}

