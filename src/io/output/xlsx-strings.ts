/** Text as XML character data: the three characters XML reserves there, escaped. */
export function xmlText(value: string): string {
  return value.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
}

/** Text as an XML attribute value in double quotes (line breaks kept as character references). */
export function xmlAttribute(value: string): string {
  return value.replace(/[&<>"\n\t]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\n': '&#10;', '\t': '&#9;' })[c]!);
}

/** A workbook's table of shared strings: each distinct text once, cells refer to it by index. */
export class SharedStrings {
  // A Map, not an object: the strings are values of the data (`__proto__` is a value like any other).
  private readonly indexes = new Map<string, number>();
  readonly values: string[] = [];

  index(value: string): number {
    let i = this.indexes.get(value);
    if (i === undefined) {
      i = this.values.length;
      this.indexes.set(value, i);
      this.values.push(value);
    }
    return i;
  }
}

const STRINGS_PER_CHUNK = 16384;
/** Leading or trailing white space, or a line break: XML would drop it unless asked to keep it. */
const NEEDS_PRESERVE = /^\s|\s$|\n/;

/** xl/sharedStrings.xml, a chunk at a time (a column of a million distinct values is a million strings). */
export function* sharedStringsXml(strings: SharedStrings): Generator<Buffer> {
  const count = strings.values.length;
  yield Buffer.from(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" uniqueCount="${count}">`, 'utf8');
  for (let start = 0; start < count; start += STRINGS_PER_CHUNK) {
    const chunk = strings.values.slice(start, start + STRINGS_PER_CHUNK).map((v) => (NEEDS_PRESERVE.test(v) ? `<si><t xml:space="preserve">${xmlText(v)}</t></si>` : `<si><t>${xmlText(v)}</t></si>`));
    yield Buffer.from(chunk.join(''), 'utf8');
  }
  yield Buffer.from('</sst>', 'utf8');
}
