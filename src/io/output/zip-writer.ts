import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { constants, crc32, deflateRaw, type ZlibOptions } from 'node:zlib';

/** 0xFFFFFFFF: a size or offset this large is written in ZIP64 form. */
const ZIP32_LIMIT = 0xffffffff;
/** The DOS date range ZIP headers hold (UTC here). */
const DOS_FIRST = Date.UTC(1980, 0, 1);
const DOS_LAST = Date.UTC(2107, 11, 31, 23, 59, 58);

/** Deflate's window: a piece primed with this much of the previous one finds every match one stream would. */
const WINDOW = 32 * 1024;
/** Chunks given to zlib's thread pool at once (it has four threads; the machine may have two cores). */
const PIECES_IN_FLIGHT = 4;

function deflatePiece(chunk: Uint8Array, options: ZlibOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => deflateRaw(chunk, options, (error, result) => (error ? reject(error) : resolve(result))));
}

/** The ZIP64 extra field (APPNOTE 4.5.3, id 0x0001): the given sizes and offset as 8-byte values, in the order listed there. */
function zip64Extra(values: readonly number[]): Buffer {
  const field = Buffer.alloc(4 + 8 * values.length);
  field.writeUInt16LE(0x0001, 0);
  field.writeUInt16LE(8 * values.length, 2);
  values.forEach((value, i) => field.writeBigUInt64LE(BigInt(value), 4 + 8 * i));
  return field;
}

/** A part deflated (one raw deflate stream in pieces), with its CRC-32 and size before deflating. */
export interface DeflatedPart {
  readonly crc: number;
  readonly size: number;
  readonly deflated: readonly Uint8Array[];
}

/**
 * Deflates one part: its bytes at once, or a sequence of chunks deflated as they come. Each chunk
 * is deflated on its own, as pigz does, by zlib on its thread pool (both cores, while the next
 * chunks are made here): primed with the previous chunk's last 32 KiB, so matches reach back as in
 * one stream, and ended with a sync flush (an empty stored block, byte-aligned), so the pieces
 * joined are one deflate stream; the last ends the stream. A million-row sheet is 390 MB of XML,
 * and one stream on one thread kept the job waiting for it.
 */
export async function deflatePart(content: string | Uint8Array | Iterable<Uint8Array>, level: number): Promise<DeflatedPart> {
  const chunks = typeof content === 'string' ? [Buffer.from(content, 'utf8')] : content instanceof Uint8Array ? [content] : content;
  const inFlight: Promise<Buffer>[] = [];
  const deflated: Buffer[] = [];
  let crc = 0;
  let size = 0;
  let previous: Uint8Array | undefined;
  let pending: Uint8Array | undefined;
  const send = (chunk: Uint8Array, last: boolean): void => {
    const dictionary = previous && previous.length > 0 ? previous.subarray(Math.max(0, previous.length - WINDOW)) : undefined;
    const piece = deflatePiece(chunk, { level, ...(dictionary ? { dictionary } : {}), finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH });
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
    // A few chunks ahead of zlib, no more: the rest of the part waits in the generator.
    while (inFlight.length >= PIECES_IN_FLIGHT) deflated.push(await inFlight.shift()!);
  }
  send(pending ?? new Uint8Array(0), true);
  for (const piece of inFlight) deflated.push(await piece);
  return { crc, size, deflated };
}

/**
 * A ZIP file (PKWARE APPNOTE 6.3: local headers, deflated data, central directory) written part by
 * part, as a workbook needs it. Node's zlib does the work: deflate on its thread pool while the next
 * bytes are made here, and its CRC-32 in native code. (archiver, used before, took its CRC in
 * JavaScript, a third of a second for a million-row sheet, and a tenth of a second to load.)
 *
 * Each part is deflated into memory before its local header is written, so the header carries the
 * part's CRC and sizes and no data descriptor is needed; a part is at most one sheet (a million rows
 * of 11 columns deflate to about 50 MB; a sheet of a hundred columns would hold about 600 MB here). Everything is dated `modified` (to the two seconds ZIP keeps, in UTC), so
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
  /** Some part was written in ZIP64 form, so the end is too. */
  private zip64 = false;

  /** Creates the file (never replacing one: flag `wx`). */
  constructor(
    path: string,
    private readonly level: number,
    modified: Date,
    /** Sizes and offsets from this value on are written in ZIP64 form (a test lowers it to see that form). */
    private readonly zip64From = ZIP32_LIMIT,
  ) {
    // ZIP's DOS dates run from 1980 to 2107: a date outside (or no date) is clamped to that range, as
    // archiver did, instead of failing the workbook.
    const time = Number.isNaN(modified.getTime()) ? DOS_FIRST : Math.min(Math.max(modified.getTime(), DOS_FIRST), DOS_LAST);
    const when = new Date(time);
    this.time = (when.getUTCHours() << 11) | (when.getUTCMinutes() << 5) | (when.getUTCSeconds() >> 1);
    this.day = ((when.getUTCFullYear() - 1980) << 9) | ((when.getUTCMonth() + 1) << 5) | when.getUTCDate();
    this.fd = openSync(path, 'wx');
  }

  /** One part: its bytes at once, or a sequence of chunks deflated as they come. */
  async add(name: string, content: string | Uint8Array | Iterable<Uint8Array>): Promise<void> {
    this.addDeflated(name, await deflatePart(content, this.level));
  }

  /** One part deflated already (deflatePart, perhaps on another thread, at this writer's level). */
  addDeflated(name: string, part: DeflatedPart): void {
    const { crc, size, deflated } = part;
    const compressed = deflated.reduce((sum, chunk) => sum + chunk.length, 0);
    const nameBytes = Buffer.from(name, 'utf8');
    const at = this.offset;
    // A part or an offset past 4 GiB (a sheet of a million rows and about a hundred columns) is
    // written in ZIP64 form (APPNOTE 4.5.3): the header fields say 0xFFFFFFFF and a ZIP64 extra
    // field holds the real values, in the local header (both sizes) and the central entry (both sizes
    // and the offset). Smaller parts keep the plain form every reader knows.
    const zip64 = size >= this.zip64From || compressed >= this.zip64From || at >= this.zip64From;
    const extra = zip64 ? zip64Extra([size, compressed]) : Buffer.alloc(0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    this.common(local, 4, crc, zip64 ? ZIP32_LIMIT : compressed, zip64 ? ZIP32_LIMIT : size, nameBytes.length, extra.length, zip64);
    this.write(local);
    this.write(nameBytes);
    this.write(extra);
    for (const chunk of deflated) this.write(chunk);
    const centralExtra = zip64 ? zip64Extra([size, compressed, at]) : Buffer.alloc(0);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(zip64 ? 45 : 20, 4); // made by: MS-DOS attributes, version 2.0 (4.5 for ZIP64)
    this.common(entry, 6, crc, zip64 ? ZIP32_LIMIT : compressed, zip64 ? ZIP32_LIMIT : size, nameBytes.length, centralExtra.length, zip64);
    // Comment length, disk, internal and external attributes: 0.
    entry.writeUInt32LE(zip64 ? ZIP32_LIMIT : at, 42);
    this.central.push(entry, nameBytes, centralExtra);
    if (zip64) this.zip64 = true;
  }

  /** The central directory and its end record; the file's SHA-256 and size as written. */
  finish(): { sha256: string; bytes: number } {
    const start = this.offset;
    for (const part of this.central) this.write(part);
    const entries = this.central.length / 3;
    const size = this.offset - start;
    // The ZIP64 end record and its locator come first when anything needed ZIP64 (APPNOTE 4.3.14–15).
    const zip64 = this.zip64 || entries >= 0xffff || size >= this.zip64From || start >= this.zip64From;
    if (zip64) {
      const record = Buffer.alloc(56 + 20);
      const at = this.offset;
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4); // size of the rest of the record
      record.writeUInt16LE(45, 12); // made by
      record.writeUInt16LE(45, 14); // needed
      // Disk numbers 0 (16, 20).
      record.writeBigUInt64LE(BigInt(entries), 24);
      record.writeBigUInt64LE(BigInt(entries), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      record.writeUInt32LE(0x07064b50, 56); // the locator: disk 0, where the record is, one disk
      record.writeBigUInt64LE(BigInt(at), 64);
      record.writeUInt32LE(1, 72);
      this.write(record);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(zip64 ? 0xffff : entries, 8);
    end.writeUInt16LE(zip64 ? 0xffff : entries, 10);
    end.writeUInt32LE(zip64 ? ZIP32_LIMIT : size, 12);
    end.writeUInt32LE(zip64 ? ZIP32_LIMIT : start, 16);
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
  private common(header: Buffer, at: number, crc: number, compressed: number, size: number, nameLength: number, extraLength: number, zip64: boolean): void {
    header.writeUInt16LE(zip64 ? 45 : 20, at); // version needed: 2.0 (deflate), 4.5 (ZIP64)
    header.writeUInt16LE(0, at + 2); // flags: none (sizes in the header, ASCII names)
    header.writeUInt16LE(8, at + 4); // deflate
    header.writeUInt16LE(this.time, at + 6);
    header.writeUInt16LE(this.day, at + 8);
    header.writeUInt32LE(crc >>> 0, at + 10);
    header.writeUInt32LE(compressed, at + 14);
    header.writeUInt32LE(size, at + 18);
    header.writeUInt16LE(nameLength, at + 22);
    header.writeUInt16LE(extraLength, at + 24);
    // The central entry's comment length, disk and attributes follow: all 0.
  }

  private write(bytes: Uint8Array): void {
    if (this.closed) throw new Error('the ZIP file is closed');
    let done = 0;
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
    this.hash.update(bytes);
    this.offset += bytes.length;
  }
}
