import { describe, expect, it } from 'vitest';
import { generalizeColumn, intervalHierarchy } from '../../../src/engine/anonymity/hierarchy.js';
import { chooseGeneralization, choosePath, latticeNodes, nodeScore, scoreLattice } from '../../../src/engine/anonymity/lattice-search.js';
import { maskingHierarchy } from '../../../src/engine/anonymity/hierarchy.js';
import { SeededTestRandomSource } from '../../../src/engine/random/source.js';
import { tableFromRows } from '../../../src/engine/table.js';

describe('lattice search (exponential mechanism)', () => {
  const rows = Array.from({ length: 400 }, (_, i) => [String(20 + (i % 40)), ['a', 'b'][i % 2]!]);
  const table = tableFromRows(['age', 'g'], rows);
  const ages = intervalHierarchy([5, 10]);
  const lattice = [
    { levels: [0, 1, 2, 3].map((l) => generalizeColumn(table.columns[0]!, ages, l)) },
    { levels: [generalizeColumn(table.columns[1]!, undefined, 0)] },
  ];
  const sample = Uint32Array.from({ length: 400 }, (_, i) => i);

  it('enumerates every node and scores kept records weighted by 1 − loss', () => {
    expect(latticeNodes(lattice)).toEqual([[0, 0], [1, 0], [2, 0], [3, 0]]);
    // Level 0: 40 classes of 10 records (age fixes g) fail k = 11, so nothing is kept.
    expect(nodeScore(lattice, [0, 0], sample, 11)).toBe(0);
    const level1 = nodeScore(lattice, [1, 0], sample, 11);
    const level3 = nodeScore(lattice, [3, 0], sample, 11);
    expect(level1).toBeGreaterThan(level3);
    expect(level3).toBeCloseTo(200, 6); // "*" keeps every record at loss 1 on age, 0 on g: 400 × ½.
  });

  it('roll-up scores equal the direct scores of every node', () => {
    const data = Array.from({ length: 600 }, (_, i) => [String(17 + ((i * 7) % 60)), String(10000 + ((i * 13) % 97) * 3), ['x', 'y', 'z'][i % 3]!]);
    const t = tableFromRows(['age', 'zip', 'c'], data);
    const cols = [
      { levels: [0, 1, 2, 3].map((l) => generalizeColumn(t.columns[0]!, intervalHierarchy([5, 10]), l)) },
      { levels: [0, 1, 2, 3, 4, 5].map((l) => generalizeColumn(t.columns[1]!, maskingHierarchy(5), l)) },
      { levels: [generalizeColumn(t.columns[2]!, undefined, 0)] },
    ];
    const sampleRows = Uint32Array.from({ length: 300 }, (_, i) => i * 2);
    const { nodes, scores } = scoreLattice(cols, sampleRows, 4);
    expect(nodes).toEqual(latticeNodes(cols));
    nodes.forEach((node, i) => expect(scores[i]).toBeCloseTo(nodeScore(cols, node, sampleRows, 4), 9));
  });

  it('the path walk visits at most one node per step and ends among visited nodes', () => {
    const choice = choosePath(new SeededTestRandomSource(3), lattice, sample, 11, 100);
    expect(choice.steps).toBe(3);
    expect(choice.nodes).toBeLessThanOrEqual(4);
    expect(choice.node).toEqual([1, 0]);
  });

  it('with a large budget it picks the best node; with a tiny one any node is possible', () => {
    const best = chooseGeneralization(new SeededTestRandomSource(1), lattice, sample, 11, 50);
    expect(best.node).toEqual([1, 0]);
    const seen = new Set<string>();
    for (let seed = 0; seed < 200; seed++) seen.add(chooseGeneralization(new SeededTestRandomSource(seed), lattice, sample, 11, 0.001).node.join());
    expect(seen.size).toBe(4);
  });
});
