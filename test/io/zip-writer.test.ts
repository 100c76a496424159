import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, inflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ZipFileWriter } from '../../src/io/output/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'custos-zip-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The parts as the central directory lists them, each read from its local header (APPNOTE 4.3.7, 4.3.12). */
function readZip(bytes: Buffer): { name: string; data: Buffer; crc: number; time: number; day: number }[] {
  const end = bytes.length - 22;
  expect(bytes.readUInt32LE(end)).toBe(0x06054b50);
  const count = bytes.readUInt16LE(end + 10);
  let at = bytes.readUInt32LE(end + 16);
  const parts = [];
  for (let i = 0; i < count; i++) {
    expect(bytes.readUInt32LE(at)).toBe(0x02014b50);
    const nameLength = bytes.readUInt16LE(at + 28);
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const local = bytes.readUInt32LE(at + 42);
    expect(bytes.readUInt32LE(local)).toBe(0x04034b50);
    const compressed = bytes.readUInt32LE(local + 18);
    const start = local + 30 + bytes.readUInt16LE(local + 26) + bytes.readUInt16LE(local + 28);
    const data = inflateRawSync(bytes.subarray(start, start + compressed));
    expect(data.length).toBe(bytes.readUInt32LE(local + 22));
    parts.push({ name, data, crc: bytes.readUInt32LE(local + 14), time: bytes.readUInt16LE(local + 10), day: bytes.readUInt16LE(local + 12) });
    at += 46 + nameLength;
  }
  return parts;
}

async function write(path: string, when: Date): Promise<{ sha256: string; bytes: number }> {
  const zip = new ZipFileWriter(path, 1, when);
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
