import { resized } from '../../common/table/growable.js';

/**
 * A column's codes by the bytes of its values: what the byte reader asks before it makes a value's
 * text. It only remembers what the table builder answered for the same bytes (bytes decode to one
 * text), so it never decides a code itself. Open addressing over a hash of the bytes, the bytes kept
 * in one arena.
 *
 * A column of mostly distinct values (an identifier, free text) would copy its whole text here and
 * find little: when more than a quarter of a window of WINDOW look-ups (after the first) were new values, or past
 * MAX_ENTRIES values or MAX_ARENA bytes, it is not worth keeping (remember says so) and the reader
 * makes that column's values into text each time, as every value was before. (A look-up that finds
 * a value saves about half of what the text reader spends on a cell; one that does not costs about
 * three times it: below three found in four, the cache loses.)
 */
const MAX_ENTRIES = 1 << 20;
const MAX_ARENA = 16 << 20;
const WINDOW = 1 << 14;

export class ByteValueCodes {
  /** Entry + 1 per slot, 0 where empty; a power of two at most half full. */
  private slots = new Int32Array(32);
  private hashes = new Int32Array(16);
  private starts = new Int32Array(16);
  private lengths = new Int32Array(16);
  private codes = new Int32Array(16);
  private arena = new Uint8Array(256);
  private used = 0;
  private count = 0;
  /** Look-ups and new values in the current window. */
  private lookups = 0;
  private misses = 0;
  private judged = false;

  /** The code remembered for bytes[start, end), or -1. */
  lookup(bytes: Uint8Array, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    this.lookups++;
    for (let slot = mix(hash) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]! - 1;
      if (entry < 0) return -1;
      if (this.hashes[entry] !== hash || this.lengths[entry] !== length) continue;
      const arena = this.arena;
      const at = this.starts[entry]! - start;
      let k = start;
      while (k < end && arena[at + k] === bytes[k]) k++;
      if (k === end) return this.codes[entry]!;
    }
  }

  /**
   * Remembers the code of bytes[start, end) (not found by lookup). False when the column is not
   * worth keeping: it was mostly asked for new values, or holds too many.
   */
  remember(bytes: Uint8Array, start: number, end: number, hash: number, code: number): boolean {
    const length = end - start;
    if (this.count >= MAX_ENTRIES || this.used + length > MAX_ARENA) return false;
    this.misses++;
    if (this.lookups >= WINDOW) {
      // A window ends. The first only fills the cache (a column's values are met early); a later
      // one with more than a quarter new values says the column will go on being new.
      if (this.judged && this.misses * 4 > this.lookups) return false;
      this.judged = true;
      this.lookups = 0;
      this.misses = 0;
    }
    if (this.count === this.hashes.length) this.growEntries();
    if (this.used + length > this.arena.length) this.arena = resized(this.arena, Math.min(MAX_ARENA, Math.max(this.arena.length * 2, this.used + length)), this.used);
    const entry = this.count++;
    this.arena.set(bytes.subarray(start, end), this.used);
    this.hashes[entry] = hash;
    this.starts[entry] = this.used;
    this.lengths[entry] = length;
    this.codes[entry] = code;
    this.used += length;
    if (this.count * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(entry);
    return true;
  }

  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = mix(this.hashes[entry]!) & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = entry + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    for (let entry = 0; entry < this.count; entry++) this.place(entry);
  }

  private growEntries(): void {
    const n = this.hashes.length * 2;
    this.hashes = resized(this.hashes, n);
    this.starts = resized(this.starts, n);
    this.lengths = resized(this.lengths, n);
    this.codes = resized(this.codes, n);
  }
}

/** FNV's low bits follow the last byte closely: mixed before they choose a slot. */
function mix(hash: number): number {
  let h = hash ^ (hash >>> 16);
  h = Math.imul(h, 0x45d9f3b);
  return h ^ (h >>> 16);
}
