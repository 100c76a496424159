import { inflateSync } from 'node:zlib';

/**
 * The text a PDF shows, as well as a plain scan can tell it, for verify's
 * search of a release: no layout, one line per text object. The reports are
 * drawn by PDFKit with embedded (subset) fonts, so a page's text is a run of
 * glyph ids in a Flate-compressed content stream; each font's ToUnicode map
 * turns them back into characters. Literal strings of fonts without a map are
 * read as Latin-1, and the document's metadata strings (Title, Subject, …) as
 * PDF text strings. Best effort by design: a PDF this cannot read (object
 * streams, other filters, encryption) yields less text; the one error is a PDF whose streams
 * inflate past `limit` (PdfTooLargeError), which cannot be searched safely.
 */
export function pdfText(bytes: Buffer, limit = MAX_PDF_INFLATED_BYTES): string {
  const objects = pdfObjects(bytes, limit);
  const cmaps = new Map<string, Map<number, string>>();
  // PDFKit names each font once for the whole document (/F1, /F2, …); a font resource dictionary maps the name to its object.
  const fontObject = new Map<string, string>();
  for (const o of objects.values()) {
    for (const m of o.dict.matchAll(/\/(\w+)\s+(\d+)\s+0\s+R/g)) {
      const target = objects.get(m[2]!);
      if (target && /\/Type\s*\/Font\b/.test(target.dict)) fontObject.set(m[1]!, m[2]!);
    }
  }
  for (const [name, id] of fontObject) {
    const toUnicode = /\/ToUnicode\s+(\d+)\s+0\s+R/.exec(objects.get(id)!.dict);
    const stream = toUnicode ? objects.get(toUnicode[1]!)?.stream : undefined;
    if (stream) cmaps.set(name, parseCmap(stream.toString('latin1')));
  }
  const out: string[] = [];
  for (const o of objects.values()) {
    if (o.stream) {
      if (/\/Type\s*\/Font|\/FontFile|\/Length1|begincmap/.test(o.dict + o.stream.subarray(0, 200).toString('latin1'))) continue;
      const text = contentText(o.stream.toString('latin1'), cmaps);
      if (text) out.push(text);
    } else {
      for (const s of stringsOf(o.dict)) out.push(textString(s));
    }
  }
  return out.join('\n');
}

interface PdfObject {
  readonly dict: string;
  readonly stream?: Buffer;
}

/**
 * The most a PDF's compressed streams may inflate to, together. A report is tens of kilobytes;
 * a stream of zeros compresses a thousandfold, so a small hostile file could otherwise take all memory.
 */
export const MAX_PDF_INFLATED_BYTES = 256 * 1024 * 1024;

/** A PDF whose streams inflate past the limit: it cannot be read safely, so it cannot be searched. */
export class PdfTooLargeError extends Error {}

function pdfObjects(bytes: Buffer, limit: number): Map<string, PdfObject> {
  const text = bytes.toString('latin1');
  let inflated = 0;
  const objects = new Map<string, PdfObject>();
  const start = /(\d+)\s+\d+\s+obj\b/g;
  let m: RegExpExecArray | null;
  while ((m = start.exec(text))) {
    const bodyStart = m.index + m[0].length;
    const end = text.indexOf('endobj', bodyStart);
    if (end < 0) break;
    const body = text.slice(bodyStart, end);
    const streamAt = /\bstream\r?\n/.exec(body);
    if (!streamAt) {
      objects.set(m[1]!, { dict: body });
    } else {
      const dict = body.slice(0, streamAt.index);
      const from = bodyStart + streamAt.index + streamAt[0].length;
      const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
      const to = length ? Math.min(from + Number(length[1]), end) : text.lastIndexOf('endstream', end);
      let data = bytes.subarray(from, to < from ? from : to);
      if (/\/FlateDecode/.test(dict)) {
        try {
          data = inflateSync(data, { maxOutputLength: Math.max(1, limit - inflated) });
          inflated += data.length;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new PdfTooLargeError(`its compressed streams inflate to more than ${limit / 1024 / 1024} MiB`);
          data = Buffer.alloc(0);
        }
      } else if (/\/Filter/.test(dict)) data = Buffer.alloc(0);
      objects.set(m[1]!, { dict, stream: data });
    }
    start.lastIndex = end;
  }
  return objects;
}

const hexUtf16 = (hex: string): string => {
  let s = '';
  for (let i = 0; i + 4 <= hex.length; i += 4) s += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  return s;
};

/** The most code → text entries one CMap may set: the 65,536 two-byte codes a few times over. */
const MAX_CMAP_ENTRIES = 1 << 20;

/** A ToUnicode CMap: bfchar and bfrange entries, code → text. */
function parseCmap(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  let entries = 0;
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const e of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F\s]*)>/g)) map.set(parseInt(e[1]!, 16), hexUtf16(e[2]!.replace(/\s+/g, '')));
  }
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const e of block[1]!.matchAll(/<([0-9a-fA-F]+)>\s*<([0-9a-fA-F]+)>\s*(?:<([0-9a-fA-F\s]+)>|\[([^\]]*)\])/g)) {
      const lo = parseInt(e[1]!, 16);
      // Codes are two bytes: a range beyond them (or repeated by many fonts) would only fill memory.
      if (lo > 0xffff) continue;
      const hi = Math.min(parseInt(e[2]!, 16), 0xffff);
      entries += hi - lo + 1;
      if (entries > MAX_CMAP_ENTRIES) return map;
      if (e[3] !== undefined) {
        const base = hexUtf16(e[3].replace(/\s+/g, ''));
        for (let c = lo; c <= hi; c++) map.set(c, base.slice(0, -1) + String.fromCharCode(base.charCodeAt(base.length - 1) + (c - lo)));
      } else {
        const list = [...e[4]!.matchAll(/<([0-9a-fA-F\s]*)>/g)].map((x) => hexUtf16(x[1]!.replace(/\s+/g, '')));
        list.slice(0, hi - lo + 1).forEach((s, i) => map.set(lo + i, s));
      }
    }
  }
  return map;
}

/** A literal string's bytes, its escapes undone. */
function literal(body: string): string {
  return body.replace(/\\([nrtbf()\\]|[0-7]{1,3}|\r?\n)/g, (_, e: string) => {
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8) & 0xff);
    return ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '(': '(', ')': ')', '\\': '\\' } as Record<string, string>)[e] ?? '';
  });
}

/** The strings of a dictionary or content: literal ones `(…)` (balanced parentheses) and hex ones `<…>`. */
function stringsOf(text: string): { hex: boolean; value: string }[] {
  const found: { hex: boolean; value: string }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') {
      let depth = 1;
      let j = i + 1;
      for (; j < text.length && depth > 0; j++) {
        if (text[j] === '\\') j++;
        else if (text[j] === '(') depth++;
        else if (text[j] === ')') depth--;
      }
      found.push({ hex: false, value: literal(text.slice(i + 1, j - 1)) });
      i = j - 1;
    } else if (c === '<' && text[i + 1] !== '<') {
      const j = text.indexOf('>', i);
      if (j < 0) break;
      found.push({ hex: true, value: text.slice(i + 1, j).replace(/\s+/g, '') });
      i = j;
    } else if (c === '<') i++;
  }
  return found;
}

/** A PDF text string (metadata): UTF-16BE after a byte-order mark, else PDFDocEncoding read as Latin-1. */
function textString(s: { hex: boolean; value: string }): string {
  const bytes = s.hex ? Buffer.from(s.value.length % 2 ? `${s.value}0` : s.value, 'hex').toString('latin1') : s.value;
  if (bytes.startsWith('\u00fe\u00ff')) {
    let out = '';
    for (let i = 2; i + 1 < bytes.length; i += 2) out += String.fromCharCode((bytes.charCodeAt(i) << 8) | bytes.charCodeAt(i + 1));
    return out;
  }
  return bytes;
}

/** The shown text of a content stream: each string of Tj, TJ, ' and " in its current font's map. */
function contentText(content: string, cmaps: ReadonlyMap<string, Map<number, string>>): string {
  const lines: string[] = [];
  let line = '';
  let cmap: Map<number, string> | undefined;
  const show = (s: { hex: boolean; value: string }): string => {
    if (!cmap) return s.hex ? Buffer.from(s.value, 'hex').toString('latin1') : s.value;
    // Identity-H: two-byte codes.
    const codes = s.hex ? s.value : Buffer.from(s.value, 'latin1').toString('hex');
    let out = '';
    for (let i = 0; i + 4 <= codes.length; i += 4) out += cmap.get(parseInt(codes.slice(i, i + 4), 16)) ?? '';
    return out;
  };
  // A TJ array is read up to its ']' with its strings whole, and stops at a stray '[' (a run of
  // '[' without ']' made every one of them scan to the end of the stream: quadratic time).
  const ops = /\/([^\s/[\]()<>]+)\s+[-\d.]+\s+Tf\b|\[((?:[^\]\\[(]|\\.|\((?:[^()\\]|\\.)*\))*)\]\s*TJ\b|(\((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*\)|<[0-9a-fA-F\s]*>)\s*(?:Tj|'|[-\d.]+\s+[-\d.]+\s+")|\bET\b/g;
  for (const m of content.matchAll(ops)) {
    if (m[1] !== undefined) cmap = cmaps.get(m[1]);
    else if (m[2] !== undefined) {
      // A large negative adjustment in a TJ array is a word space.
      for (const part of m[2].matchAll(/(\((?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*\)|<[0-9a-fA-F\s]*>)|(-?[\d.]+)/g)) {
        if (part[1]) line += stringsOf(part[1]).map(show).join('');
        else if (Number(part[2]) < -200) line += ' ';
      }
    } else if (m[3] !== undefined) line += stringsOf(m[3]).map(show).join('');
    else if (line) {
      lines.push(line);
      line = '';
    }
  }
  if (line) lines.push(line);
  return lines.join('\n');
}
