import { isBlank, trimLeading, trimTrailing } from '../../common/trim-ends.js';

// One way to match each digit (not \d+\.?\d*, which tries every split of a long run of digits before failing).
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
// CR is a trigger in the literature; here every CR is already LF when the guard runs (releasedText).
const TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

/** Line breaks other than LF: XML (and so XLSX) reads a CR as LF, so both formats write LF. */
const NON_LF_BREAK = /\r\n?/g;
/**
 * Characters XML 1.0 cannot hold (C0 controls but tab and LF, U+FFFE/U+FFFF, unpaired
 * surrogates): a workbook would drop or reject them, so both formats write U+FFFD.
 */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A text value as every release format writes it, so one value reads the same in CSV and XLSX. */
export function releasedText(value: string): string {
  return value.replace(NON_LF_BREAK, '\n').replace(NOT_XML, '\ufffd');
}

/** A CSV text cell: the released text, guarded against formula injection. */
export function csvText(value: string): string {
  return neutralizeFormula(releasedText(value));
}

/** An XLSX text cell: a typed string never evaluates as a formula, so it needs no guard. */
export function xlsxText(value: string): string {
  return releasedText(value);
}

/**
 * A lone sign, a common mark for "no value": spreadsheets read it as text, and nothing follows it
 * that could run, so it is left as it is (a longer run like "--" is parsed as a formula and guarded).
 */
const LONE_SIGN = new Set(['-', '+', '\uff0d', '\uff0b']);

/** The full-width forms of the triggers, which some spreadsheets read as the ASCII ones. */
const FULLWIDTH_TRIGGERS = new Set(['\uff1d', '\uff0b', '\uff0d', '\uff20']);

/**
 * Spreadsheet formula injection (CWE-1236): a text cell starting with = + - @
 * tab or a line break (a CR is an LF by now) may run as a formula when the CSV
 * is opened, and so may one whose first character after white space is a
 * trigger or its full-width form (programs trim differently). Such cells get a
 * leading apostrophe; plain numbers like -5 and a lone sign are left alone.
 */
export function neutralizeFormula(value: string): string {
  if (value.length === 0 || LONE_SIGN.has(trimTrailing(trimLeading(value, isBlank), isBlank))) return value;
  const lead = value.trimStart()[0];
  const risky = TRIGGERS.has(value[0]!) || value[0] === '\n' || (lead !== undefined && (TRIGGERS.has(lead) || FULLWIDTH_TRIGGERS.has(lead)));
  if (!risky) return value;
  return PLAIN_NUMBER.test(value) ? value : `'${value}`;
}
