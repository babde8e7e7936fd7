import { describe, expect, it } from 'vitest';
import { CellLinkedList, type Domain } from './cellList';
import { WendlandC2 } from './kernel';
import { NeighbourList, buildNeighbours } from './neighbours';
import { ParticleArrays, type Dimension } from './particles';

/** Deterministic pseudo-random numbers in [0, 1). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function randomParticles(dim: Dimension, n: number, size: number, seed: number): ParticleArrays {
  const rnd = lcg(seed);
  const p = new ParticleArrays(dim, n);
  for (let i = 0; i < n; i++) p.add(rnd() * size, rnd() * size, dim === 3 ? rnd() * size : 0, 1, 1);
  return p;
}

function bruteForce(p: ParticleArrays, cutoff: number, domain: Domain): Set<string> {
  const out = new Set<string>();
  const len = [0, 1, 2].map((a) => domain.upper[a]! - domain.lower[a]!);
  for (let i = 0; i < p.count; i++) {
    for (let j = 0; j < p.count; j++) {
      if (i === j) continue;
      const d = [p.x[i]! - p.x[j]!, p.y[i]! - p.y[j]!, p.z[i]! - p.z[j]!].map((v, a) => {
        if (!domain.periodic[a]) return v;
        const l = len[a]!;
        return v > l / 2 ? v - l : v < -l / 2 ? v + l : v;
      });
      if (Math.hypot(d[0]!, d[1]!, d[2]!) < cutoff) out.add(`${i},${j}`);
    }
  }
  return out;
}

function listed(list: NeighbourList, count: number): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < count; i++) {
    for (let k = list.start[i]!; k < list.start[i + 1]!; k++) out.add(`${i},${list.j[k]!}`);
  }
  return out;
}

describe('cell-linked-list neighbour search', () => {
  const cases: { dim: Dimension; periodic: [boolean, boolean, boolean] }[] = [
    { dim: 2, periodic: [false, false, false] },
    { dim: 2, periodic: [true, false, false] },
    { dim: 3, periodic: [false, false, false] },
    { dim: 3, periodic: [true, true, true] },
  ];
  for (const { dim, periodic } of cases) {
    it(`finds exactly the brute-force pairs (${dim}D, periodic ${periodic.join('/')})`, () => {
      const size = 1;
      const n = dim === 2 ? 400 : 500;
      const p = randomParticles(dim, n, size, 7 + dim);
      const kernel = new WendlandC2(0.1, dim);
      const domain: Domain = { lower: [0, 0, 0], upper: [size, size, size], periodic };
      const cells = new CellLinkedList(domain, kernel.cutoff, n, dim);
      cells.rebuild(p);
      const list = new NeighbourList(n, 8); // deliberately small: exercises growth
      buildNeighbours(p, p, cells, kernel, true, list);
      expect(listed(list, n)).toEqual(bruteForce(p, kernel.cutoff, domain));
      for (let k = 0; k < list.pairs; k++) {
        const e = Math.hypot(list.ex[k]!, list.ey[k]!, list.ez[k]!);
        expect(e).toBeCloseTo(1, 12);
        expect(list.w[k]).toBeCloseTo(kernel.w(list.r[k]!), 12);
      }
    }, 30_000);
  }

  it('rebuilds without allocating once grown', () => {
    const p = randomParticles(2, 300, 1, 3);
    const kernel = new WendlandC2(0.08, 2);
    const domain: Domain = { lower: [0, 0, 0], upper: [1, 1, 0], periodic: [false, false, false] };
    const cells = new CellLinkedList(domain, kernel.cutoff, 300, 2);
    const list = new NeighbourList(300, 300 * 32);
    cells.rebuild(p);
    buildNeighbours(p, p, cells, kernel, true, list);
    const arrays = [cells.head, cells.next, list.start, list.j, list.w, list.dw, list.ex];
    for (let i = 0; i < p.count; i++) p.x[i] = (p.x[i]! + 0.37) % 1;
    cells.rebuild(p);
    buildNeighbours(p, p, cells, kernel, true, list);
    const after = [cells.head, cells.next, list.start, list.j, list.w, list.dw, list.ex];
    // Same typed arrays (no reallocation), and the shifted configuration is found in full.
    arrays.forEach((a, i) => expect(a).toBe(after[i]));
    expect(list.pairs).toBeGreaterThan(300);
  }, 30_000);

  it('clamps particles outside a non-periodic domain into border cells', () => {
    const p = new ParticleArrays(2, 2);
    p.add(-0.05, 0.5, 0, 1, 1);
    p.add(0.05, 0.5, 0, 1, 1);
    const kernel = new WendlandC2(0.1, 2);
    const domain: Domain = { lower: [0, 0, 0], upper: [1, 1, 0], periodic: [false, false, false] };
    const cells = new CellLinkedList(domain, kernel.cutoff, 2, 2);
    cells.rebuild(p);
    const list = new NeighbourList(2, 4);
    buildNeighbours(p, p, cells, kernel, true, list);
    expect(list.pairs).toBe(2);
  });
});
