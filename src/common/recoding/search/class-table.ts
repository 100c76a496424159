import { tupleIds, type KeyColumn } from '../../table/tuple-ids.js';
import type { QuasiColumn } from './recoding-input.js';

/**
 * The equivalence classes of one lattice node: per class its number of records, its code in each
 * quasi-identifier at the node's level and, when a model needs it, its histogram of sensitive values.
 */
export interface ClassTable {
  readonly count: number;
  readonly sizes: Uint32Array;
  /** hist[c · values + v]: records of class c with sensitive code v; null without a sensitive column. */
  readonly hist: Uint32Array | null;
  readonly values: number;
  /** The number of quasi-identifiers. */
  readonly width: number;
  /**
   * With a research subset (δ-presence): every record of the class, in the subset or not (ARX's
   * pcount), while `sizes` and `hist` count the subset's records only (ARX's count). Absent without one.
   */
  readonly population?: Uint32Array;
  /** Column j's code of every class at the node's level of column j. */
  column(j: number): Uint32Array;
}

/**
 * How a class's codes are packed into one number: code_j · stride_j summed, the radix of column j
 * being its number of level-0 codes (a level never has more). Exact while the product of the radices
 * stays below 2^52; wider inputs keep one array per column instead.
 */
export interface KeyLayout {
  readonly stride: Float64Array;
  readonly radix: Uint32Array;
}

const EXACT = 2 ** 52;

/** Histogram cells (classes × sensitive values) a search may hold at its finest node: 256 MiB of counts. */
export const MAX_HISTOGRAM_CELLS = 2 ** 26;

/** Too many classes × sensitive values for dense histograms: a clear refusal instead of running out of memory. */
export class HistogramTooLarge extends RangeError {}

function checkHistogram(classes: number, values: number): void {
  if (classes * values > MAX_HISTOGRAM_CELLS) {
    throw new HistogramTooLarge(`${classes.toLocaleString('en-US')} classes × ${values.toLocaleString('en-US')} sensitive values are too many to count per class; generalize the sensitive column or the quasi-identifiers first`);
  }
}

export function keyLayout(columns: readonly QuasiColumn[]): KeyLayout | undefined {
  const radix = Uint32Array.from(columns, (c) => c.cardinality[0]!);
  const stride = new Float64Array(columns.length);
  let product = 1;
  for (let j = columns.length - 1; j >= 0; j--) {
    stride[j] = product;
    product *= radix[j]!;
    if (product >= EXACT) return undefined;
  }
  return { stride, radix };
}

/**
 * Dense ids for float keys, reused across nodes: an open-addressing table whose slots carry the
 * number of the round that wrote them, so a new round costs nothing instead of clearing the table.
 */
export class KeyIds {
  private keys: Float64Array;
  private ids: Int32Array;
  private rounds: Uint32Array;
  private mask = 0;
  private round = 0;
  count = 0;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.keys = new Float64Array(size);
    this.ids = new Int32Array(size);
    this.rounds = new Uint32Array(size);
  }

  reset(expected: number): void {
    let size = 16;
    while (size < expected * 2) size *= 2;
    if (size > this.keys.length) {
      this.keys = new Float64Array(size);
      this.ids = new Int32Array(size);
      this.rounds = new Uint32Array(size);
      this.round = 0;
    }
    this.mask = size - 1;
    this.count = 0;
    if (++this.round === 0xffffffff) {
      this.rounds.fill(0);
      this.round = 1;
    }
  }

  id(key: number): number {
    const { keys, rounds, mask, round } = this;
    const lo = key % 4294967296;
    const hi = (key - lo) / 4294967296;
    let slot = (Math.imul(lo | 0, 0x9e3779b1) ^ Math.imul(hi | 0, 0x85ebca6b)) & mask;
    for (;;) {
      if (rounds[slot] !== round) {
        rounds[slot] = round;
        keys[slot] = key;
        return (this.ids[slot] = this.count++);
      }
      if (keys[slot] === key) return this.ids[slot]!;
      slot = (slot + 1) & mask;
    }
  }
}

/** A class table whose codes are packed keys; columns are decoded when a measure asks. */
class PackedTable implements ClassTable {
  private readonly decoded: (Uint32Array | undefined)[];

  constructor(
    readonly count: number,
    readonly keys: Float64Array,
    readonly sizes: Uint32Array,
    readonly hist: Uint32Array | null,
    readonly values: number,
    private readonly layout: KeyLayout,
    readonly population?: Uint32Array,
  ) {
    this.decoded = new Array(layout.radix.length);
  }

  get width(): number {
    return this.layout.radix.length;
  }

  column(j: number): Uint32Array {
    let out = this.decoded[j];
    if (!out) {
      const stride = this.layout.stride[j]!;
      const radix = this.layout.radix[j]!;
      out = new Uint32Array(this.count);
      for (let c = 0; c < this.count; c++) out[c] = Math.floor(this.keys[c]! / stride) % radix;
      this.decoded[j] = out;
    }
    return out;
  }
}

/** A class table with one code array per column, for inputs too wide to pack. */
class ColumnTable implements ClassTable {
  constructor(
    readonly count: number,
    readonly codes: readonly Uint32Array[],
    readonly sizes: Uint32Array,
    readonly hist: Uint32Array | null,
    readonly values: number,
    readonly population?: Uint32Array,
  ) {}

  get width(): number {
    return this.codes.length;
  }

  column(j: number): Uint32Array {
    return this.codes[j]!;
  }
}

/**
 * The sensitive codes a class table counts: `codes` in [0, values), and, for several sensitive
 * columns, each further column's codes already shifted past the cells of the columns before it.
 */
export interface HistogramCodes {
  readonly codes: Uint32Array;
  readonly values: number;
  readonly more?: readonly Uint32Array[];
}

/** Each record's further sensitive cells (several sensitive columns): counted beside its first. */
function countMore(hist: Uint32Array, more: readonly Uint32Array[] | undefined, classOf: ArrayLike<number>, values: number, rowCount: number): void {
  if (!more) return;
  for (const codes of more) for (let r = 0; r < rowCount; r++) hist[classOf[r]! * values + codes[r]!]!++;
}

/** Builds class tables for one search: from the records at the bottom, by roll-up above. */
export class ClassBuilder {
  private readonly ids: KeyIds;

  constructor(
    private readonly columns: readonly QuasiColumn[],
    private readonly sensitive: HistogramCodes | undefined,
    private readonly rowCount: number,
    /** undefined: one array per column (wide inputs, or forced by tests). */
    private readonly layout: KeyLayout | undefined = keyLayout(columns),
    /** The research subset (1: in it): sizes count its records, `population` every record (δ-presence). */
    private readonly subset?: Uint8Array,
  ) {
    this.ids = new KeyIds(1024);
    if (subset && sensitive) throw new RangeError('a research subset is counted without sensitive histograms');
  }

  /** The classes of a node computed from the records, with each record's class. */
  fromRecords(node: readonly number[]): ClassTable & { readonly classOf: Uint32Array } {
    const { columns, rowCount, sensitive, layout } = this;
    const values = sensitive?.values ?? 0;
    if (!layout) {
      const keys: KeyColumn[] = columns.map((c, j) => {
        const lift = c.lift[node[j]!]!;
        return { codes: node[j] === 0 ? c.codes : Uint32Array.from(c.codes, (code) => lift[code]!), cardinality: c.cardinality[node[j]!]! };
      });
      const { ids, count } = tupleIds(keys, null, rowCount);
      if (sensitive) checkHistogram(count, values);
      const codes = keys.map(() => new Uint32Array(count));
      const sizes = new Uint32Array(count);
      const hist = sensitive ? new Uint32Array(count * values) : null;
      const { subset } = this;
      const population = subset ? new Uint32Array(count) : undefined;
      for (let r = 0; r < rowCount; r++) {
        const c = ids[r]!;
        if (population) {
          if (population[c]!++ === 0) for (let j = 0; j < keys.length; j++) codes[j]![c] = keys[j]!.codes[r]!;
          sizes[c]! += subset![r]!;
          continue;
        }
        if (sizes[c]!++ === 0) for (let j = 0; j < keys.length; j++) codes[j]![c] = keys[j]!.codes[r]!;
        if (hist) hist[c * values + sensitive!.codes[r]!]!++;
      }
      if (hist) countMore(hist, sensitive!.more, ids, values, rowCount);
      return Object.assign(new ColumnTable(count, codes, sizes, hist, values, population), { classOf: ids });
    }
    const rowKeys = new Float64Array(rowCount);
    columns.forEach((c, j) => {
      const lift = c.lift[node[j]!]!;
      const stride = layout.stride[j]!;
      for (let r = 0; r < rowCount; r++) rowKeys[r] = rowKeys[r]! + lift[c.codes[r]!]! * stride;
    });
    const table = this.ids;
    table.reset(rowCount);
    const classOf = new Uint32Array(rowCount);
    for (let r = 0; r < rowCount; r++) classOf[r] = table.id(rowKeys[r]!);
    const count = table.count;
    if (sensitive) checkHistogram(count, values);
    const keys = new Float64Array(count);
    const sizes = new Uint32Array(count);
    const hist = sensitive ? new Uint32Array(count * values) : null;
    const { subset } = this;
    const population = subset ? new Uint32Array(count) : undefined;
    for (let r = 0; r < rowCount; r++) {
      const c = classOf[r]!;
      if (population) {
        if (population[c]!++ === 0) keys[c] = rowKeys[r]!;
        sizes[c]! += subset![r]!;
        continue;
      }
      if (sizes[c]!++ === 0) keys[c] = rowKeys[r]!;
      if (hist) hist[c * values + sensitive!.codes[r]!]!++;
    }
    if (hist) countMore(hist, sensitive!.more, classOf, values, rowCount);
    return Object.assign(new PackedTable(count, keys, sizes, hist, values, layout, population), { classOf });
  }

  /**
   * The classes of node `to` from those of a finer node `from` (to ≥ from in every column), in one
   * pass over the source's classes: each changed column's code jumps up through its levels.
   */
  lift(source: ClassTable, from: readonly number[], to: readonly number[]): ClassTable {
    if (!(source instanceof PackedTable)) return this.fromRecords(to);
    const layout = this.layout!;
    const changed = to.map((level, j) => (level !== from[j] ? j : -1)).filter((j) => j >= 0);
    const maps = changed.map((j) => this.jump(j, from[j]!, to[j]!));
    const table = this.ids;
    table.reset(source.count);
    const map = new Uint32Array(source.count);
    const moved = new Float64Array(source.count);
    for (let p = 0; p < source.count; p++) {
      let key = source.keys[p]!;
      for (let i = 0; i < changed.length; i++) {
        const j = changed[i]!;
        const stride = layout.stride[j]!;
        const code = Math.floor(source.keys[p]! / stride) % layout.radix[j]!;
        key += (maps[i]![code]! - code) * stride;
      }
      moved[p] = key;
      map[p] = table.id(key);
    }
    return this.merged(source, map, moved, table.count);
  }

  /** Column j's codes at level `from` mapped to level `to`, composed from the one-level steps. */
  private jump(j: number, from: number, to: number): Uint32Array {
    const column = this.columns[j]!;
    const out = Uint32Array.from({ length: column.cardinality[from]! }, (_, code) => code);
    for (let level = from; level < to; level++) {
      const step = column.up[level]!;
      for (let code = 0; code < out.length; code++) out[code] = step[out[code]!]!;
    }
    return out;
  }

  /** The merged table: source class p goes to class map[p] with key moved[p]. */
  private merged(source: PackedTable, map: Uint32Array, moved: Float64Array, count: number): ClassTable {
    const { values } = source;
    const keys = new Float64Array(count);
    const sizes = new Uint32Array(count);
    const hist = source.hist ? new Uint32Array(count * values) : null;
    const population = source.population ? new Uint32Array(count) : undefined;
    for (let p = 0; p < source.count; p++) {
      const c = map[p]!;
      // Classes merged into c share its key: writing it again (a class of no subset record) changes nothing.
      if (sizes[c] === 0) keys[c] = moved[p]!;
      sizes[c]! += source.sizes[p]!;
      if (population) population[c]! += source.population![p]!;
      if (hist) {
        const src = p * values;
        const dst = c * values;
        for (let v = 0; v < values; v++) hist[dst + v]! += source.hist![src + v]!;
      }
    }
    return new PackedTable(count, keys, sizes, hist, values, this.layout!, population);
  }

  /**
   * The classes one level up in column j, from the classes of the node below: column j's codes move
   * up one level and classes that become identical merge (sizes and histograms add). The work is the
   * parent's number of classes, never the records. `node` is the child (column j already raised).
   */
  rollUp(parent: ClassTable, node: readonly number[], j: number): ClassTable {
    const step = this.columns[j]!.up[node[j]! - 1]!;
    if (!(parent instanceof PackedTable)) return this.rollUpColumns(parent as ColumnTable, node, j, step);
    const stride = this.layout!.stride[j]!;
    const radix = this.layout!.radix[j]!;
    const table = this.ids;
    table.reset(parent.count);
    const map = new Uint32Array(parent.count);
    const moved = new Float64Array(parent.count);
    for (let p = 0; p < parent.count; p++) {
      const key = parent.keys[p]!;
      const code = Math.floor(key / stride) % radix;
      const next = key + (step[code]! - code) * stride;
      moved[p] = next;
      map[p] = table.id(next);
    }
    return this.merged(parent, map, moved, table.count);
  }

  private rollUpColumns(parent: ColumnTable, node: readonly number[], j: number, step: Uint32Array): ClassTable {
    const moved = Uint32Array.from(parent.codes[j]!, (code) => step[code]!);
    const keys: KeyColumn[] = this.columns.map((c, i) => ({ codes: i === j ? moved : parent.codes[i]!, cardinality: c.cardinality[node[i]!]! }));
    const { ids, count } = tupleIds(keys, null, parent.count);
    const codes = keys.map(() => new Uint32Array(count));
    const sizes = new Uint32Array(count);
    const { values } = parent;
    const hist = parent.hist ? new Uint32Array(count * values) : null;
    const population = parent.population ? new Uint32Array(count) : undefined;
    for (let p = 0; p < parent.count; p++) {
      const c = ids[p]!;
      if (sizes[c] === 0) for (let i = 0; i < keys.length; i++) codes[i]![c] = keys[i]!.codes[p]!;
      sizes[c]! += parent.sizes[p]!;
      if (population) population[c]! += parent.population![p]!;
      if (hist) {
        const src = p * values;
        const dst = c * values;
        for (let v = 0; v < values; v++) hist[dst + v]! += parent.hist![src + v]!;
      }
    }
    return new ColumnTable(count, codes, sizes, hist, values, population);
  }
}
