const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/**
 * Spreadsheet formula injection (CWE-1236): a text cell starting with = + - @
 * tab or CR may run as a formula when the CSV is opened. Such cells get a
 * leading apostrophe; plain numbers like -5 are left alone.
 */
export function neutralizeFormula(value: string): string {
  if (value.length === 0 || !TRIGGERS.has(value[0]!)) return value;
  return PLAIN_NUMBER.test(value) ? value : `'${value}`;
}
