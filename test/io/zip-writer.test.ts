import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ZipFileWriter } from '../../src/io/output/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The parts as the central directory lists them, each read from its local header (APPNOTE 4.3.7, 4.3.12; ZIP64 4.3.14–15, 4.5.3). */
function readZip(bytes: Buffer): { name: string; data: Buffer; crc: number; time: number; day: number; zip64: boolean }[] {
  const end = bytes.length - 22;
  expect(bytes.readUInt32LE(end)).toBe(0x06054b50);
  let count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  if (count === 0xffff || at === 0xffffffff) {
    expect(bytes.readUInt32LE(end - 20)).toBe(0x07064b50);
    const record = Number(bytes.readBigUInt64LE(end - 20 + 8));
    expect(bytes.readUInt32LE(record)).toBe(0x06064b50);
    count = Number(bytes.readBigUInt64LE(record + 32));
    at = Number(bytes.readBigUInt64LE(record + 48));
  }
  const parts = [];
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = bytes.readUInt16LE(at + 28);
    const extraLength = bytes.readUInt16LE(at + 30);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    let local = bytes.readUInt32LE(at + 42);
    let compressed = bytes.readUInt32LE(at + 20);
    let size = bytes.readUInt32LE(at + 24);
    const zip64 = local === 0xffffffff;
    if (zip64) {
      const extra = at + 46 + nameLength;
      expect(bytes.readUInt16LE(extra)).toBe(0x0001);
      size = Number(bytes.readBigUInt64LE(extra + 4));
      compressed = Number(bytes.readBigUInt64LE(extra + 12));
      local = Number(bytes.readBigUInt64LE(extra + 20));
    }
    expect(bytes.readUInt32LE(local)).toBe(0x04034b50);
    const localExtra = bytes.readUInt16LE(local + 28);
    if (zip64) {
      // The local header's own ZIP64 field holds both sizes too.
      expect(bytes.readUInt32LE(local + 18)).toBe(0xffffffff);
      expect(Number(bytes.readBigUInt64LE(local + 30 + nameLength + 4))).toBe(size);
      expect(Number(bytes.readBigUInt64LE(local + 30 + nameLength + 12))).toBe(compressed);
    } else expect(bytes.readUInt32LE(local + 18)).toBe(compressed);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + localExtra;
    const data = inflateRawSync(bytes.subarray(start, start + compressed));
    expect(data.length).toBe(size);
    parts.push({ name, data, crc: bytes.readUInt32LE(local + 14), time: bytes.readUInt16LE(local + 10), day: bytes.readUInt16LE(local + 12), zip64 });
    at += 46 + nameLength + extraLength;
  }
  return parts;
}

async function write(path: string, when: Date, zip64From?: number): Promise<{ sha256: string; bytes: number }> {
  const zip = new ZipFileWriter(path, 1, when, zip64From);
  await zip.add('a.xml', '<a>é</a>');
  await zip.add('empty', new Uint8Array(0));
  await zip.add('big.xml', (function* () {
    for (let i = 0; i < 50; i++) yield Buffer.from(`<row r="${i}">${'x'.repeat(5000)}</row>`);
  })());
  return zip.finish();
}

describe('the ZIP writer', () => {
  it('writes parts that read back with their CRC-32, sizes and date, the same bytes every time', async () => {
    const when = new Date(Date.UTC(2026, 10, 28, 17, 45, 31));
    const first = join(dir, 'one.zip');
    const { sha256, bytes } = await write(first, when);
    const file = readFileSync(first);
    expect(bytes).toBe(file.length);
    expect(sha256).toBe(createHash('sha256').update(file).digest('hex'));
    const parts = readZip(file);
    expect(parts.map((p) => p.name)).toEqual(['a.xml', 'empty', 'big.xml']);
    expect(parts[0]!.data.toString('utf8')).toBe('<a>é</a>');
    expect(parts[1]!.data.length).toBe(0);
    expect(parts[2]!.data.length).toBe(50 * 5000 + [...Array(50).keys()].reduce((s, i) => s + `<row r="${i}"></row>`.length, 0));
    for (const part of parts) expect(part.crc).toBe(crc32(part.data) >>> 0);
    // DOS time and date, UTC, seconds halved: 17:45:30 on 2026-11-28.
    expect(parts[0]!.time).toBe((17 << 11) | (45 << 5) | 15);
    expect(parts[0]!.day).toBe(((2026 - 1980) << 9) | (11 << 5) | 28);
    const second = join(dir, 'two.zip');
    expect((await write(second, when)).sha256).toBe(sha256);
  });

  it('writes a part or an offset past the limit in ZIP64 form, the smaller parts before it as usual', async () => {
    // The limit lowered to 1,000 bytes stands for 4 GiB: big.xml is larger, and so is every offset after it.
    const path = join(dir, 'zip64.zip');
    await write(path, new Date(Date.UTC(2026, 10, 28)), 1000);
    const parts = readZip(readFileSync(path));
    expect(parts.map((p) => [p.name, p.zip64])).toEqual([['a.xml', false], ['empty', false], ['big.xml', true]]);
    expect(parts[2]!.data.subarray(0, 12).toString()).toBe('<row r="0">x');
    for (const part of parts) expect(part.crc).toBe(crc32(part.data) >>> 0);
  });

  it('clamps a date outside the DOS range instead of failing', async () => {
    for (const [when, day] of [[new Date(Date.UTC(1970, 0, 1)), (0 << 9) | (1 << 5) | 1], [new Date(Number.NaN), (0 << 9) | (1 << 5) | 1], [new Date(Date.UTC(2200, 0, 1)), (127 << 9) | (12 << 5) | 31]] as const) {
      const path = join(dir, `date-${day}-${when.getTime()}.zip`);
      await write(path, when);
      expect(readZip(readFileSync(path))[0]!.day).toBe(day);
    }
  });

  it('fails a part whose bytes fail midway, its pieces already with zlib left to finish quietly', async () => {
    const zip = new ZipFileWriter(join(dir, 'cut.zip'), 1, new Date(Date.UTC(2000, 0, 1)));
    const failing = (function* () {
      for (let i = 0; i < 3; i++) yield Buffer.alloc(100_000, 65 + i);
      throw new Error('the sheet stopped');
    })();
    await expect(zip.add('sheet.xml', failing)).rejects.toThrow('the sheet stopped');
    zip.close();
    // Any rejection left unhandled would fail this file's run (vitest reports them as errors).
    await new Promise((r) => setTimeout(r, 50));
  });

  it('never replaces a file', async () => {
    const path = join(dir, 'taken.zip');
    await write(path, new Date(Date.UTC(2000, 0, 1)));
    expect(() => new ZipFileWriter(path, 1, new Date())).toThrow(/EEXIST/);
  });
});
