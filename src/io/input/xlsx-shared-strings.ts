import { InputError } from './input-error.js';
import { formatCount } from '../../common/format/numbers.js';

/**
 * The shared-string references of a workbook's sheets, checked before their values are believed.
 * A cell of type "s" holds an index into the workbook's shared strings; SheetJS reads it with
 * parseInt and looks it up unchecked: an index past the end, negative or not a number (`__proto__`)
 * crashed the reader with a TypeError (the sheet's parse fails and the sheet is dropped), and one
 * like "1e3" or "1.5" silently read string 1. Every part's cells are scanned as the zip is checked
 * (the XML is inflated there anyway); the count of strings is SheetJS's own, once it has parsed.
 */

interface Found {
  readonly part: string;
  readonly cell: string;
  readonly index: string;
}

const TAG = /<(?:[A-Za-z_][\w.-]*:)?(c|row)(?=[\s/>])([^>]*)>/g;
/** A cell of type "s" (t="s", spaced or prefixed as XML allows). */
const STRING_CELL = /<(?:[A-Za-z_][\w.-]*:)?c\s[^>]*?\bt\s*=\s*["']s["'][^>]*>/g;
/** Its value, right after the tag. */
const VALUE_AFTER = /\s*<(?:[A-Za-z_][\w.-]*:)?v(?:\s[^>]*)?>([^<]*)<\//y;
const CLOSE_CELL = /<\/(?:[A-Za-z_][\w.-]*:)?c\s*>/g;
const VALUE = /<(?:[A-Za-z_][\w.-]*:)?v(?:\s[^>]*)?>([^<]*)<\/(?:[A-Za-z_][\w.-]*:)?v\s*>/;
const ATTRIBUTE = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const CELL_REF = /^([A-Za-z]{1,3})(\d{1,7})$/;
const DIGITS = /^\s*(\d+)\s*$/;

/** The attributes of a tag, their namespace prefixes dropped (SheetJS reads `x:t` as `t`). */
function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) found.set(m[1]!.slice(m[1]!.indexOf(':') + 1), m[2] ?? m[3] ?? '');
  return found;
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(Number(e[1] === 'x' ? `0x${e.slice(2)}` : e.slice(1))) : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e]!,
  );
}

/** The cell whose tag starts at `at`: its r attribute, or its place counted from the rows and cells before it (as SheetJS counts). */
function cellAt(xml: string, at: number): string {
  const own = CELL_REF.exec(attributes(/^<[^>]*>/.exec(xml.slice(at, at + 4096))?.[0] ?? '').get('r') ?? '');
  if (own) return `${own[1]!.toUpperCase()}${own[2]}`;
  let row = 0;
  let column = -1;
  TAG.lastIndex = 0;
  for (let m = TAG.exec(xml); m && m.index <= at; m = TAG.exec(xml)) {
    const attrs = attributes(m[2]!);
    if (m[1] === 'row') {
      const r = Number(attrs.get('r'));
      row = Number.isInteger(r) && r > 0 ? r : row + 1;
      column = -1;
      continue;
    }
    const ref = CELL_REF.exec(attrs.get('r') ?? '');
    column = ref ? [...ref[1]!.toUpperCase()].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1 : column + 1;
  }
  return `${columnLetters(column)}${row}`;
}

function columnLetters(column: number): string {
  let letters = '';
  for (let c = column + 1; c > 0; c = Math.floor((c - 1) / 26)) letters = String.fromCharCode(65 + ((c - 1) % 26)) + letters;
  return letters;
}

export class SharedStringReferences {
  /** Per part: the first index that is not a whole number, and the largest index with its cell. */
  private readonly malformed: Found[] = [];
  private readonly largest = new Map<string, { index: number; found: Found }>();
  private selfClosedString: string | undefined;
  private workbookXml = '';
  private workbookRels = '';

  /** Sees each part of the zip (checkZipLimits' onPart). */
  readonly visit = (name: string, data: Uint8Array): void => {
    if (name === 'xl/workbook.xml') this.workbookXml = Buffer.from(data).toString('utf8');
    else if (name === 'xl/_rels/workbook.xml.rels') this.workbookRels = Buffer.from(data).toString('utf8');
    const xml = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
    // An empty string written <si/>: SheetJS does not count it (it splits at </si>), so every later index would read the next string.
    if (this.selfClosedString === undefined && /<(?:[A-Za-z_][\w.-]*:)?(?:si|sstItem)\s*\/>/.test(xml)) this.selfClosedString = name;
    // Only parts with string cells (an attribute t="s", prefixed or spaced as XML allows) are scanned.
    if (/\bt\s*=\s*["']s["']/.test(xml)) this.scan(name, xml);
  };

  /**
   * One pass over the string cells (the tag, then its value right after it), keeping only where the
   * first malformed and the largest index are; their cells are named afterwards, from the tag's r or,
   * without one, by counting rows and cells up to it. Per-cell work is one regex match and a test.
   */
  private scan(part: string, xml: string): void {
    let malformed: { at: number; index: string } | undefined;
    let largest: { at: number; index: number } | undefined;
    STRING_CELL.lastIndex = 0;
    for (let m = STRING_CELL.exec(xml); m; m = STRING_CELL.exec(xml)) {
      if (m[0].endsWith('/>')) continue;
      VALUE_AFTER.lastIndex = STRING_CELL.lastIndex;
      let value = VALUE_AFTER.exec(xml)?.[1];
      if (value === undefined) {
        // Something before the value (a formula, whitespace and comments): look inside the cell.
        CLOSE_CELL.lastIndex = STRING_CELL.lastIndex;
        const close = CLOSE_CELL.exec(xml);
        value = VALUE.exec(xml.slice(STRING_CELL.lastIndex, close ? close.index : xml.length))?.[1];
      }
      // No value (or an empty one): SheetJS reads the cell as empty, as it is.
      if (value === undefined || value === '') continue;
      const digits = DIGITS.exec(value.includes('&') ? unescapeXml(value) : value);
      if (!digits) {
        malformed ??= { at: m.index, index: unescapeXml(value) };
        continue;
      }
      const index = Number(digits[1]);
      if (!largest || index > largest.index) largest = { at: m.index, index };
    }
    if (malformed) this.malformed.push({ part, cell: cellAt(xml, malformed.at), index: malformed.index });
    if (largest) this.largest.set(part, { index: largest.index, found: { part, cell: cellAt(xml, largest.at), index: String(largest.index) } });
  }

  /** Refuses the workbook (naming the file, sheet and cell) when a string cell's index is not one of its `count` shared strings. */
  check(count: number, file: string): void {
    if (this.selfClosedString !== undefined) {
      throw new InputError(`the shared strings (${this.selfClosedString}) hold an empty string written <si/>, which Custos cannot number reliably; open the workbook in Excel and save it again, or export the sheet as CSV`, file);
    }
    const first = this.malformed[0];
    if (first) throw this.error(first, `holds ${JSON.stringify(first.index.slice(0, 40))} where a shared-string index is expected (a whole number from 0 to ${count - 1})`, file);
    for (const { index, found } of this.largest.values()) {
      if (index >= count) throw this.error(found, `refers to shared string ${index}, but the workbook has ${count === 0 ? 'none' : `${formatCount(count)} (0 to ${formatCount(count - 1)})`}`, file);
    }
  }

  private error(found: Found, problem: string, file: string): InputError {
    const sheet = this.sheetOf(found.part);
    const where = sheet === undefined ? `cell ${found.cell} of the part ${found.part}` : `cell ${/^[A-Za-z_][\w.]*$/.test(sheet) ? sheet : `'${sheet.replace(/'/g, "''")}'`}!${found.cell}`;
    return new InputError(`${where} ${problem}: the workbook is damaged; open it in Excel and save it again, or export the sheet as CSV`, file);
  }

  /** The sheet a part holds, from the workbook's sheet list and its relations (undefined when they do not say). */
  private sheetOf(part: string): string | undefined {
    const targets = new Map<string, string>();
    for (const m of this.workbookRels.matchAll(/<(?:[\w.-]+:)?Relationship\b([^>]*)>/g)) {
      const a = attributes(m[1]!);
      const id = a.get('Id');
      const target = a.get('Target');
      if (id !== undefined && target !== undefined) targets.set(id, target.startsWith('/') ? target.slice(1) : `xl/${target}`);
    }
    for (const m of this.workbookXml.matchAll(/<(?:[\w.-]+:)?sheet\b([^>]*)>/g)) {
      const a = attributes(m[1]!);
      const id = a.get('id');
      if (id !== undefined && targets.get(id) === part) return unescapeXml(a.get('name') ?? '');
    }
    return undefined;
  }
}
