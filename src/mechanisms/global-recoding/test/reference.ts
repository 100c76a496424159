/**
 * A second, deliberately plain implementation of the models and measures over string records
 * (Maps of joined tuples, no class tables, no roll-up), written from ARX's definitions as the
 * README states them, for the tests to compare the engine with.
 */
import type { Measure } from '../../../common/recoding/search/measures.js';
import type { PrivacyModel } from '../../../common/recoding/search/models.js';

export interface RefColumn {
  /** Generalized value of each record per level: values[level][record]. */
  readonly values: readonly (readonly string[])[];
  /** Share of the domain a value covers at a level (ARX DomainShare). */
  readonly share: (value: string, level: number) => number;
  readonly domainSize: number;
}

export interface RefInput {
  readonly columns: readonly RefColumn[];
  readonly sensitive: readonly string[];
  /** The sensitive values in ordered-distance order. */
  readonly order: readonly string[];
  readonly models: readonly PrivacyModel[];
  readonly limit: number;
  readonly measure: Measure;
  /** ARX's gsFactor and raw attribute weights (one per column) of the Loss; its defaults without. */
  readonly loss?: { readonly gsFactor: number; readonly weights: readonly number[] };
}

export interface RefClass {
  readonly key: string;
  readonly node: readonly number[];
  readonly records: number[];
  suppressed: boolean;
}

export function refClasses(input: RefInput, node: readonly number[]): RefClass[] {
  const byKey = new Map<string, RefClass>();
  const n = input.sensitive.length;
  for (let r = 0; r < n; r++) {
    const key = JSON.stringify(input.columns.map((c, j) => c.values[node[j]!]![r]));
    let cls = byKey.get(key);
    if (!cls) byKey.set(key, (cls = { key, node, records: [], suppressed: false }));
    cls.records.push(r);
  }
  return [...byKey.values()];
}

function counts(values: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const v of values) out.set(v, (out.get(v) ?? 0) + 1);
  return out;
}

const nodeOf = (cls: RefClass): readonly number[] => cls.node;

export function refMeets(model: PrivacyModel, input: RefInput, records: readonly number[]): boolean {
  const sens = counts(records.map((r) => input.sensitive[r]!));
  const size = records.length;
  const overall = counts(input.sensitive);
  const n = input.sensitive.length;
  switch (model.type) {
    case 'k-anonymity':
      return size >= model.k;
    case 'maximum-risk':
      return 1 / size <= model.risk;
    case 'average-risk':
      return true;
    case 'distinct-l-diversity':
      return sens.size >= model.l;
    case 'entropy-l-diversity': {
      if (sens.size < model.l) return false;
      let h = 0;
      for (const c of sens.values()) h -= (c / size) * Math.log2(c / size);
      return h >= Math.log2(model.l) - 1e-12;
    }
    case 'recursive-cl-diversity': {
      const sorted = [...sens.values()].sort((a, b) => b - a);
      if (sorted.length < model.l) return false;
      return sorted[0]! < model.c * sorted.slice(model.l - 1).reduce((a, b) => a + b, 0);
    }
    case 't-closeness': {
      if (model.distance === 'equal') {
        let d = 0;
        for (const v of overall.keys()) d += Math.abs((sens.get(v) ?? 0) / size - overall.get(v)! / n);
        return d / 2 <= model.t + 1e-12;
      }
      if (model.distance === 'ordered') {
        const present = input.order.filter((v) => overall.has(v));
        let running = 0;
        let d = 0;
        for (const v of present) {
          running += (sens.get(v) ?? 0) / size - overall.get(v)! / n;
          d += Math.abs(running);
        }
        return present.length <= 1 || d / (present.length - 1) <= model.t + 1e-12;
      }
      throw new Error('hierarchical distance has its own test');
    }
    case 'beta-likeness':
      // Written from the definition alone: the gain in exact integers, fN − nC ≤ β·nC with β a fraction of
      // integers (the tests' β are), and the enhanced bound in doubles (a logarithm never ties a rational).
      for (const [v, f] of sens) {
        const C = overall.get(v)!;
        const gain = f * n - size * C;
        if (gain <= 0) continue;
        const [num, den] = fractionOf(model.beta);
        if (gain * den > num * size * C) return false;
        if (model.variant === 'enhanced' && gain / (size * C) > -Math.log(C / n)) return false;
      }
      return true;
    case 'delta-disclosure':
      for (const [v, f] of sens) if (Math.abs(Math.log(f / size) - Math.log(overall.get(v)! / n)) >= model.delta) return false;
      return true;
    case 'delta-presence':
      throw new Error('δ-presence needs the population: presence.test.ts has its own reference');
  }
}

/** A test's threshold as integers num/den (it has at most 6 decimals). */
function fractionOf(x: number): [number, number] {
  const den = 1_000_000;
  const num = Math.round(x * den);
  if (num / den !== x) throw new Error(`${x} has more than 6 decimals`);
  return [num, den];
}

/** Marks suppressed classes as ARX does; returns the suppressed record count. */
export function refSuppress(input: RefInput, classes: RefClass[]): number {
  let suppressed = 0;
  for (const cls of classes) {
    cls.suppressed = input.models.some((m) => !refMeets(m, input, cls.records));
    if (cls.suppressed) suppressed += cls.records.length;
  }
  for (const model of input.models) {
    if (model.type !== 'average-risk') continue;
    // Smallest classes first; equal sizes in the order of their values' first appearance, column by column.
    const rank = input.columns.map((col, j) => {
      const first = new Map<string, number>();
      return (cls: RefClass): number => {
        const values = col.values[nodeOf(cls)[j]!]!;
        if (first.size === 0) for (const v of values) if (!first.has(v)) first.set(v, first.size);
        return first.get(values[cls.records[0]!]!)!;
      };
    });
    const released = classes.filter((c) => !c.suppressed).sort((a, b) => a.records.length - b.records.length || rank.map((r) => r(a) - r(b)).find((d) => d !== 0) || 0);
    let count = released.length;
    let records = released.reduce((sum, c) => sum + c.records.length, 0);
    for (const cls of released) {
      if (records === 0 || count / records <= model.risk) break;
      cls.suppressed = true;
      suppressed += cls.records.length;
      count--;
      records -= cls.records.length;
    }
  }
  return suppressed;
}

export function refMeasure(input: RefInput, node: readonly number[], classes: readonly RefClass[]): number {
  const n = input.sensitive.length;
  const released = classes.filter((c) => !c.suppressed);
  const suppressedRecords = classes.filter((c) => c.suppressed).reduce((s, c) => s + c.records.length, 0);
  const m = input.columns.length;
  switch (input.measure) {
    case 'loss': {
      // ARX's MetricMDNMLoss(gsFactor): gFactor scales a released value's share, sFactor the rest of a suppressed one's.
      const gs = input.loss?.gsFactor ?? 0.5;
      const g = gs <= 0.5 ? 1 : 2 - 2 * gs;
      const s = gs < 0.5 ? 2 * gs : 1;
      const raw = input.loss?.weights ?? input.columns.map(() => 1);
      const largest = Math.max(...raw);
      const weights = largest === 0 ? raw.map(() => 1) : raw.map((w) => w / largest);
      let product = 1;
      input.columns.forEach((col, j) => {
        let sum = 0;
        for (const cls of classes) {
          for (const r of cls.records) {
            const share = col.share(col.values[node[j]!]![r]!, node[j]!);
            sum += cls.suppressed ? share + s * (1 - share) : g * share;
          }
        }
        const min = (g * n) / col.domainSize;
        // ARX: (x − min)/(max − min), anything not ≥ 0 (NaN when the domain has one value) becomes 0.
        const raw = (sum - min) / (n - min);
        const v = raw >= 0 ? raw : 0;
        product *= Math.pow((Math.floor(v * 1e10) / 1e10) * weights[j]! + 1, 1 / m);
      });
      return product - 1;
    }
    case 'discernibility':
      return classes.reduce((s, c) => s + (c.suppressed ? n * c.records.length : c.records.length ** 2), 0);
    case 'aecs':
      return n / (released.length + (suppressedRecords > 0 ? 1 : 0));
    case 'precision':
      return (
        input.columns.reduce((s, col, j) => {
          const height = col.values.length - 1;
          return s + ((n - suppressedRecords) * (height === 0 ? 0 : node[j]! / height) + suppressedRecords) / n;
        }, 0) / m
      );
    case 'entropy': {
      let total = 0;
      input.columns.forEach((col, j) => {
        const original = counts(col.values[0]!);
        const generalized = counts(col.values[node[j]!]!);
        let v = 0;
        for (let r = 0; r < n; r++) v += Math.log2(original.get(col.values[0]![r]!)! / generalized.get(col.values[node[j]!]![r]!)!);
        const supp = classes.filter((c) => c.suppressed).flatMap((c) => c.records.map((r) => col.values[node[j]!]![r]!));
        const bySupp = counts(supp);
        for (const c of bySupp.values()) v += c * Math.log2(c / supp.length);
        total += Math.floor(-v * 1e10) / 1e10;
      });
      return total;
    }
  }
}
