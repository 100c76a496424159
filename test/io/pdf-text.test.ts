import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PdfTooLargeError, pdfText } from '../../src/io/input/pdf-text.js';

/** A PDF body of numbered objects, each a Flate-compressed content stream (no xref: pdfText scans for objects). */
function pdfOf(contents: readonly Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  contents.forEach((content, i) => {
    const data = deflateSync(content);
    parts.push(Buffer.from(`${i + 1} 0 obj\n<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`), data, Buffer.from('\nendstream\nendobj\n'));
  });
  parts.push(Buffer.from('%%EOF\n'));
  return Buffer.concat(parts);
}

const shown = (text: string): Buffer => Buffer.from(`BT /F9 12 Tf 72 700 Td (${text}) Tj ET`);

describe("pdfText (verify's reading of a release's PDF)", () => {
  it('reads the text its compressed content streams show (the control)', () => {
    expect(pdfText(pdfOf([shown('30,162 records'), shown('second page')]))).toBe('30,162 records\nsecond page');
  });

  it('refuses a PDF whose streams inflate past the limit, one stream or several together', () => {
    // Blank padding compresses about a thousandfold: a small file, a large stream.
    const padded = (bytes: number): Buffer => Buffer.concat([shown('hidden'), Buffer.alloc(bytes, 0x20)]);
    expect(() => pdfText(pdfOf([padded(2 * 1024 * 1024)]), 1024 * 1024)).toThrow(PdfTooLargeError);
    expect(() => pdfText(pdfOf([padded(600 * 1024), padded(600 * 1024)]), 1024 * 1024)).toThrow(/inflate to more than 1 MiB/);
    expect(pdfText(pdfOf([padded(300 * 1024), padded(300 * 1024)]), 1024 * 1024)).toBe('hidden\nhidden');
  });

  it('a 300 KB PDF whose one stream inflates to 300 MB is refused at the default limit', () => {
    const bomb = pdfOf([Buffer.alloc(300 * 1024 * 1024)]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(() => pdfText(bomb)).toThrow(/inflate to more than 256 MiB/);
  });

  it("a stream of a million '[' is read in linear time (each once scanned to the end of the stream)", () => {
    const start = Date.now();
    expect(pdfText(pdfOf([Buffer.from('['.repeat(1_000_000)), shown('after')]))).toBe('after');
    expect(Date.now() - start).toBeLessThan(5_000);
  });

  it('a TJ array keeps strings holding brackets whole', () => {
    expect(pdfText(pdfOf([Buffer.from('BT /F9 12 Tf [(a[1]) -300 (b]c)] TJ ET')]))).toBe('a[1] b]c');
  });
});
