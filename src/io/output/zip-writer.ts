import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { constants, crc32, deflateRaw, type ZlibOptions } from 'node:zlib';

/** Deflate's window: a piece primed with this much of the previous one finds every match one stream would. */
const WINDOW = 32 * 1024;
/** Chunks given to zlib's thread pool at once (it has four threads; the machine may have two cores). */
const PIECES_IN_FLIGHT = 4;

function deflatePiece(chunk: Uint8Array, options: ZlibOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => deflateRaw(chunk, options, (error, result) => (error ? reject(error) : resolve(result))));
}

/**
 * A ZIP file (PKWARE APPNOTE 6.3: local headers, deflated data, central directory) written part by
 * part, as a workbook needs it. Node's zlib does the work: deflate on its thread pool while the next
 * bytes are made here, and its CRC-32 in native code. (archiver, used before, took its CRC in
 * JavaScript, a third of a second for a million-row sheet, and a tenth of a second to load.)
 *
 * Each part is deflated into memory before its local header is written, so the header carries the
 * part's CRC and sizes and no data descriptor is needed; a part is at most one sheet (a million rows
 * deflate to about 20 MB). Everything is dated `modified` (to the two seconds ZIP keeps, in UTC), so
 * the same parts and time give the same bytes: verify writes a workbook again and compares them.
 */
export class ZipFileWriter {
  private readonly fd: number;
  private offset = 0;
  private readonly central: Buffer[] = [];
  private readonly hash = createHash('sha256');
  private readonly time: number;
  private readonly day: number;
  private closed = false;

  /** Creates the file (never replacing one: flag `wx`). */
  constructor(
    path: string,
    private readonly level: number,
    modified: Date,
  ) {
    this.fd = openSync(path, 'wx');
    this.time = (modified.getUTCHours() << 11) | (modified.getUTCMinutes() << 5) | (modified.getUTCSeconds() >> 1);
    this.day = ((modified.getUTCFullYear() - 1980) << 9) | ((modified.getUTCMonth() + 1) << 5) | modified.getUTCDate();
  }

  /** One part: its bytes at once, or a sequence of chunks deflated as they come. */
  async add(name: string, content: string | Uint8Array | Iterable<Uint8Array>): Promise<void> {
    const chunks = typeof content === 'string' ? [Buffer.from(content, 'utf8')] : content instanceof Uint8Array ? [content] : content;
    // Each chunk is deflated on its own, as pigz does, by zlib on its thread pool (both cores, while
    // the next chunks are made here): primed with the previous chunk's last 32 KiB, so matches reach
    // back as in one stream, and ended with a sync flush (an empty stored block, byte-aligned), so
    // the pieces joined are one deflate stream; the last ends the stream. A million-row sheet is
    // 390 MB of XML, and one stream on one thread kept the job waiting for it.
    const inFlight: Promise<Buffer>[] = [];
    const deflated: Buffer[] = [];
    let crc = 0;
    let size = 0;
    let previous: Uint8Array | undefined;
    let pending: Uint8Array | undefined;
    const send = (chunk: Uint8Array, last: boolean): void => {
      const dictionary = previous && previous.length > 0 ? previous.subarray(Math.max(0, previous.length - WINDOW)) : undefined;
      const piece = deflatePiece(chunk, { level: this.level, ...(dictionary ? { dictionary } : {}), finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH });
      // Awaited in order below; when an earlier piece fails, the later ones are never awaited and
      // must not end the process as unhandled rejections.
      piece.catch(() => undefined);
      inFlight.push(piece);
      previous = chunk;
    };
    for (const chunk of chunks) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      if (pending) send(pending, false);
      pending = chunk;
      // A few chunks ahead of zlib, no more: the rest of the sheet waits in the generator.
      while (inFlight.length >= PIECES_IN_FLIGHT) deflated.push(await inFlight.shift()!);
    }
    send(pending ?? new Uint8Array(0), true);
    for (const piece of inFlight) deflated.push(await piece);
    const compressed = deflated.reduce((sum, chunk) => sum + chunk.length, 0);
    const nameBytes = Buffer.from(name, 'utf8');
    const at = this.offset;
    if (size > 0xffffffff || compressed > 0xffffffff || at > 0xffffffff) throw new RangeError(`the part ${name} would need ZIP64 (over 4 GiB), which this writer does not write`);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    this.common(local, 4, crc, compressed, size, nameBytes.length);
    this.write(local);
    this.write(nameBytes);
    for (const chunk of deflated) this.write(chunk);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4); // made by: MS-DOS attributes, version 2.0
    this.common(entry, 6, crc, compressed, size, nameBytes.length);
    // Comment length, disk, internal and external attributes: 0.
    entry.writeUInt32LE(at, 42);
    this.central.push(entry, nameBytes);
  }

  /** The central directory and its end record; the file's SHA-256 and size as written. */
  finish(): { sha256: string; bytes: number } {
    const start = this.offset;
    for (const part of this.central) this.write(part);
    const entries = this.central.length / 2;
    if (entries > 0xffff || this.offset > 0xffffffff) throw new RangeError('the workbook would need ZIP64 (over 65,535 parts or 4 GiB), which this writer does not write');
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries, 8);
    end.writeUInt16LE(entries, 10);
    end.writeUInt32LE(this.offset - start, 12);
    end.writeUInt32LE(start, 16);
    this.write(end);
    this.close();
    return { sha256: this.hash.digest('hex'), bytes: this.offset };
  }

  /** Closes the file after a failure (the caller's staging folder is discarded with it). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /** The fields a local header (from `at` = 4) and a central entry (from 6) share. */
  private common(header: Buffer, at: number, crc: number, compressed: number, size: number, nameLength: number): void {
    header.writeUInt16LE(20, at); // version needed: 2.0 (deflate)
    header.writeUInt16LE(0, at + 2); // flags: none (sizes in the header, ASCII names)
    header.writeUInt16LE(8, at + 4); // deflate
    header.writeUInt16LE(this.time, at + 6);
    header.writeUInt16LE(this.day, at + 8);
    header.writeUInt32LE(crc >>> 0, at + 10);
    header.writeUInt32LE(compressed, at + 14);
    header.writeUInt32LE(size, at + 18);
    header.writeUInt16LE(nameLength, at + 22);
    // Extra field length: 0 (the central entry's comment, disk and attributes follow, all 0).
  }

  private write(bytes: Uint8Array): void {
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
    this.hash.update(bytes);
    this.offset += bytes.length;
  }
}
