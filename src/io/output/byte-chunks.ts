/** Bytes handed on at a time: big enough to keep each write or stream step cheap. */
export const CHUNK_BYTES = 1 << 20;

/**
 * Bytes appended into a buffer that is handed on when full. A release is a
 * million rows of short pieces (cells formatted once per dictionary entry):
 * copied as bytes, not joined as strings, they leave the garbage collector
 * nothing to do.
 */
export class ByteChunks {
  private buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private position = 0;

  put(bytes: Uint8Array): void {
    const n = bytes.length;
    if (this.position + n > this.buffer.length) this.grow(n);
    const buffer = this.buffer;
    let at = this.position;
    if (n < 24) for (let i = 0; i < n; i++) buffer[at++] = bytes[i]!;
    else {
      buffer.set(bytes, at);
      at += n;
    }
    this.position = at;
  }

  /** A non-negative integer in decimal. */
  putInteger(value: number): void {
    if (this.position + 16 > this.buffer.length) this.grow(16);
    let digits = 1;
    for (let v = value; v >= 10; v = Math.floor(v / 10)) digits++;
    const buffer = this.buffer;
    let at = this.position + digits;
    this.position = at;
    let v = value;
    do {
      buffer[--at] = 48 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
  }

  get full(): boolean {
    return this.position >= CHUNK_BYTES - 4096;
  }

  /** The bytes so far; the next ones go into a fresh buffer, since the stream still holds this one. */
  take(): Buffer {
    const taken = this.buffer.subarray(0, this.position);
    this.buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    this.position = 0;
    return taken;
  }

  private grow(needed: number): void {
    const bigger = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.position + needed));
    this.buffer.copy(bigger, 0, 0, this.position);
    this.buffer = bigger;
  }
}

