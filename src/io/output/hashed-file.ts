import { createHash, type Hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';

/** A file written once, front to back, hashing exactly the bytes it writes. */
export class HashedFileWriter {
  private readonly fd: number;
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;
  constructor(readonly path: string) {
    this.fd = openSync(path, 'wx');
  }
  write(data: string | Uint8Array): void {
    const buffer = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    let offset = 0;
    while (offset < buffer.length) offset += writeSync(this.fd, buffer, offset, buffer.length - offset);
    this.hash.update(buffer);
    this.bytes += buffer.length;
  }
  close(): { sha256: string; bytes: number } {
    closeSync(this.fd);
    return { sha256: this.hash.digest('hex'), bytes: this.bytes };
  }
}
