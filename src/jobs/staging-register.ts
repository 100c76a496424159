/**
 * Staging folder paths written by the worker into memory it shares with the
 * host, synchronously and before each folder is made. A message would arrive
 * too late: a Ctrl-C handled after the worker's mkdir but before its message
 * left the folder behind (1 run in 178 on a loaded machine). Whatever the
 * timing of a kill, the host reads every path the worker may have created.
 */
const CAPACITY = 16 * 1024;

export function newStagingBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(4 + CAPACITY);
}

export function rememberStaging(buffer: SharedArrayBuffer, path: string): void {
  const length = new Int32Array(buffer, 0, 1);
  const bytes = new TextEncoder().encode(`${path}\n`);
  const used = Atomics.load(length, 0);
  if (used + bytes.length > CAPACITY) throw new Error('too many staging folders for one run');
  new Uint8Array(buffer, 4).set(bytes, used);
  Atomics.store(length, 0, used + bytes.length);
}

export function stagingPaths(buffer: SharedArrayBuffer): string[] {
  const used = Atomics.load(new Int32Array(buffer, 0, 1), 0);
  return new TextDecoder()
    .decode(new Uint8Array(buffer, 4, used).slice())
    .split('\n')
    .filter((line) => line !== '');
}
