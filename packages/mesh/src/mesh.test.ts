import { describe, expect, it } from 'vitest';
import {
  analyseTopology,
  boundingBox,
  enclosedVolume_mm3,
  loftIndices,
  loftRingVertex,
  loftVertexCount,
  planeSection,
  readStl,
  sectionChord_mm,
  surfaceArea_mm2,
  transformPositions,
  vertexNormals,
  writeBinaryStl,
  writeGlb,
  type LoftOptions,
  type TriangleMesh,
} from './index';
import { cube, ellipsoid } from '../test/shapes';

/** Closed cylinder of radius r, height h (z from 0 to h), capped by the poles at the cap centres. */
function cylinder(radius: number, height: number, rings: number, perRing: number): TriangleMesh {
  const options: LoftOptions = { ringCount: rings, ringSize: perRing };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  for (let r = 0; r < rings; r++) {
    for (let i = 0; i < perRing; i++) {
      const phi = (2 * Math.PI * i) / perRing;
      const v = loftRingVertex(options, r, i) * 3;
      positions[v] = radius * Math.cos(phi);
      positions[v + 1] = radius * Math.sin(phi);
      positions[v + 2] = (height * r) / (rings - 1);
    }
  }
  positions.set([0, 0, height], positions.length - 3);
  return { positions, indices: loftIndices(options) };
}

/** Torus: tube radius r around a circle of radius R in the xy plane, as a periodic loft. */
function torus(R: number, r: number, around: number, tube: number): TriangleMesh {
  const options: LoftOptions = { ringCount: around, ringSize: tube, periodic: true };
  const positions = new Float64Array(loftVertexCount(options) * 3);
  for (let j = 0; j < around; j++) {
    const u = (2 * Math.PI * j) / around;
    for (let i = 0; i < tube; i++) {
      const v = (2 * Math.PI * i) / tube;
      const k = loftRingVertex(options, j, i) * 3;
      // Tube ring counter-clockwise seen from the advance direction (+u).
      positions[k] = (R + r * Math.cos(v)) * Math.cos(u);
      positions[k + 1] = (R + r * Math.cos(v)) * Math.sin(u);
      positions[k + 2] = -r * Math.sin(v);
    }
  }
  return { positions, indices: loftIndices(options) };
}

const rel = (measured: number, exact: number): number => Math.abs(measured / exact - 1);

describe('cube', () => {
  const mesh = cube(2);
  it('has the exact area, volume, box and topology', () => {
    expect(surfaceArea_mm2(mesh)).toBeCloseTo(24, 12);
    expect(enclosedVolume_mm3(mesh)).toBeCloseTo(8, 12);
    expect(boundingBox(mesh.positions)).toEqual({ min: [0, 0, 0], max: [2, 2, 2] });
    const topo = analyseTopology(mesh);
    expect(topo).toMatchObject({ vertices: 8, edges: 18, faces: 12, eulerCharacteristic: 2, closed: true });
    expect(topo.consistentlyOriented).toBe(true);
  });
  it('detects holes, flips and non-manifold edges', () => {
    const open = { positions: mesh.positions, indices: mesh.indices.slice(0, 33) };
    expect(analyseTopology(open)).toMatchObject({ boundaryEdges: 3, closed: false, consistentlyOriented: false });
    const flipped = mesh.indices.slice();
    flipped[1] = mesh.indices[2] as number;
    flipped[2] = mesh.indices[1] as number;
    const topo = analyseTopology({ positions: mesh.positions, indices: flipped });
    expect(topo.closed).toBe(true);
    expect(topo.inconsistentEdges).toBe(3);
    expect(topo.consistentlyOriented).toBe(false);
    const extra = new Uint32Array([...mesh.indices, 0, 2, 5]);
    expect(analyseTopology({ positions: mesh.positions, indices: extra }).nonManifoldEdges).toBeGreaterThan(0);
  });
  it('has a square section of area 4 and perimeter 8, and chord 2', () => {
    const s = planeSection(mesh, [1, 1, 1.3], [0, 0, 1]);
    expect(s.perimeter_mm).toBeCloseTo(8, 12);
    expect(s.area_mm2).toBeCloseTo(4, 12);
    expect(sectionChord_mm(mesh, [1, 1, 1.3], [0, 0, 1], [1, 0, 0])).toBeCloseTo(2, 12);
    expect(sectionChord_mm(mesh, [0.5, 0.5, 1.3], [0, 0, 1], [1, 1, 0])).toBeCloseTo(2 * Math.SQRT2, 12);
  });
  it('stays closed when the plane passes through vertices (vertices on the plane count as above)', () => {
    // Plane through the top face: the side triangles are cut at their top edge.
    const s = planeSection(mesh, [1, 1, 2], [0, 0, 1]);
    expect(s.perimeter_mm).toBeCloseTo(8, 12);
    expect(s.area_mm2).toBeCloseTo(4, 12);
    // Plane through the bottom face: every vertex counts as above, the cube only touches it.
    expect(planeSection(mesh, [1, 1, 0], [0, 0, 1]).segments).toBe(0);
    expect(planeSection(mesh, [1, 1, 3], [0, 0, 1]).segments).toBe(0);
  });
  it('keeps volume and orientation under a rigid transform', () => {
    const c = Math.cos(0.7);
    const s = Math.sin(0.7);
    const moved = {
      positions: transformPositions(mesh.positions.slice(), {
        rotation: [c, -s, 0, s, c, 0, 0, 0, 1],
        translation: [10, -3, 5],
      }),
      indices: mesh.indices,
    };
    expect(enclosedVolume_mm3(moved)).toBeCloseTo(8, 10);
    expect(surfaceArea_mm2(moved)).toBeCloseTo(24, 10);
  });
});

describe('analytic shapes converge', () => {
  it('sphere: area and volume errors fall as O(h²), < 0.5 % at 64 × 128', () => {
    const r = 10;
    const errors = [16, 32, 64].map((n) => {
      const m = ellipsoid(r, r, r, n - 1, 2 * n);
      const topo = analyseTopology(m);
      expect(topo.consistentlyOriented).toBe(true);
      expect(topo.eulerCharacteristic).toBe(2);
      return [rel(surfaceArea_mm2(m), 4 * Math.PI * r * r), rel(enclosedVolume_mm3(m), (4 / 3) * Math.PI * r ** 3)];
    });
    for (let k = 1; k < errors.length; k++) {
      expect(errors[k]?.[0]).toBeLessThan((errors[k - 1]?.[0] ?? 0) / 3);
      expect(errors[k]?.[1]).toBeLessThan((errors[k - 1]?.[1] ?? 0) / 3);
    }
    expect(errors[2]?.[0]).toBeLessThan(0.005);
    expect(errors[2]?.[1]).toBeLessThan(0.005);
  });
  it('ellipsoid 30 × 20 × 50: volume and area within 0.3 % (area against a numerically integrated exact value)', () => {
    const [a, b, c] = [30, 20, 50];
    const m = ellipsoid(a, b, c, 127, 256);
    expect(rel(enclosedVolume_mm3(m), (4 / 3) * Math.PI * a * b * c)).toBeLessThan(0.003);
    // Exact area by numerical quadrature of the parametric surface element (midpoint rule, 2000 × 2000).
    let area = 0;
    const n = 2000;
    for (let i = 0; i < n; i++) {
      const t = (Math.PI * (i + 0.5)) / n;
      for (let j = 0; j < n; j++) {
        const p = (2 * Math.PI * (j + 0.5)) / n;
        const st = Math.sin(t);
        const ct = Math.cos(t);
        const sp = Math.sin(p);
        const cp = Math.cos(p);
        const nx = b * c * st * st * cp;
        const ny = a * c * st * st * sp;
        const nz = a * b * st * ct;
        area += Math.hypot(nx, ny, nz);
      }
    }
    area *= (Math.PI / n) * ((2 * Math.PI) / n);
    expect(rel(surfaceArea_mm2(m), area)).toBeLessThan(0.003);
  });
  it('cylinder: exact polygon values and < 0.1 % of the analytic ones at 256 around', () => {
    const [r, h, n] = [5, 20, 256];
    const m = cylinder(r, h, 4, n);
    const polygonArea = (n / 2) * r * r * Math.sin((2 * Math.PI) / n);
    expect(enclosedVolume_mm3(m)).toBeCloseTo(polygonArea * h, 8);
    expect(rel(enclosedVolume_mm3(m), Math.PI * r * r * h)).toBeLessThan(0.001);
    expect(rel(surfaceArea_mm2(m), 2 * Math.PI * r * (r + h))).toBeLessThan(0.001);
    const s = planeSection(m, [0, 0, 7.5], [0, 0, 1]);
    expect(s.area_mm2).toBeCloseTo(polygonArea, 8);
    expect(s.perimeter_mm).toBeCloseTo(2 * n * r * Math.sin(Math.PI / n), 8);
    expect(sectionChord_mm(m, [0, 0, 7.5], [0, 0, 1], [1, 0, 0])).toBeCloseTo(2 * r, 10);
    expect(analyseTopology(m)).toMatchObject({ eulerCharacteristic: 2, consistentlyOriented: true });
  });
  it('torus: Euler characteristic 0, volume 2π²Rr² within 0.1 %', () => {
    const [R, r] = [30, 5];
    const m = torus(R, r, 256, 128);
    expect(analyseTopology(m)).toMatchObject({ eulerCharacteristic: 0, consistentlyOriented: true });
    expect(rel(enclosedVolume_mm3(m), 2 * Math.PI * Math.PI * R * r * r)).toBeLessThan(0.001);
    expect(rel(surfaceArea_mm2(m), 4 * Math.PI * Math.PI * R * r)).toBeLessThan(0.001);
  });
});

describe('STL', () => {
  const mesh = ellipsoid(10, 12, 14, 15, 32);
  it('round-trips binary STL with welding, same topology and volume, deterministic bytes', () => {
    const bytes = writeBinaryStl(mesh);
    expect(bytes.length).toBe(84 + 50 * (mesh.indices.length / 3));
    expect(Buffer.from(writeBinaryStl(mesh)).equals(Buffer.from(bytes))).toBe(true);
    const back = readStl(bytes);
    expect(back.positions.length).toBe(mesh.positions.length);
    expect(back.indices.length).toBe(mesh.indices.length);
    expect(analyseTopology(back).consistentlyOriented).toBe(true);
    expect(rel(enclosedVolume_mm3(back), enclosedVolume_mm3(mesh))).toBeLessThan(1e-6);
    // Stored normals are unit and outward (first facet of the bottom fan points −z).
    const view = new DataView(bytes.buffer);
    expect(view.getFloat32(84 + 8, true)).toBeLessThan(-0.9);
  });
  it('reads ASCII STL', () => {
    const text = `solid cube\n${Array.from({ length: 12 }, (_, t) => {
      const c = cube(1);
      const v = (k: number): string => {
        const i = (c.indices[3 * t + k] as number) * 3;
        return `vertex ${c.positions[i]} ${c.positions[i + 1]} ${c.positions[i + 2]}`;
      };
      return `facet normal 0 0 0\nouter loop\n${v(0)}\n${v(1)}\n${v(2)}\nendloop\nendfacet`;
    }).join('\n')}\nendsolid cube\n`;
    const m = readStl(new TextEncoder().encode(text));
    expect(m.positions.length).toBe(24);
    expect(enclosedVolume_mm3(m)).toBeCloseTo(1, 6);
    expect(analyseTopology(m).consistentlyOriented).toBe(true);
  });
  it('rejects garbage', () => {
    expect(() => readStl(new Uint8Array([1, 2, 3]))).toThrow(/not an STL/);
  });
});

describe('GLB', () => {
  it('writes a valid glTF 2.0 binary with one named node per mesh', () => {
    const glb = writeGlb(
      [
        { name: 'cube', mesh: cube(1) },
        { name: 'ball', mesh: ellipsoid(1, 1, 1, 7, 12) },
      ],
      { extras: { note: 'x' } },
    );
    const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
    expect(view.getUint32(0, true)).toBe(0x46546c67);
    expect(view.getUint32(4, true)).toBe(2);
    expect(view.getUint32(8, true)).toBe(glb.length);
    const jsonLength = view.getUint32(12, true);
    expect(jsonLength % 4).toBe(0);
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as {
      nodes: { name: string; mesh: number }[];
      accessors: { count: number; max?: number[] }[];
      buffers: { byteLength: number }[];
      asset: { version: string; extras: { note: string } };
    };
    expect(json.asset.version).toBe('2.0');
    expect(json.asset.extras.note).toBe('x');
    expect(json.nodes.map((n) => n.name)).toEqual(['cube', 'ball']);
    expect(json.accessors[0]?.count).toBe(8);
    expect(json.accessors[0]?.max?.[2]).toBeCloseTo(0.001, 9);
    const binLength = view.getUint32(20 + jsonLength, true);
    expect(binLength).toBeGreaterThanOrEqual(json.buffers[0]?.byteLength ?? Infinity);
    expect(20 + jsonLength + 8 + binLength).toBe(glb.length);
  });
  it('stores positions (mm → m) and indices that read back through the accessors', () => {
    const meshes = [
      { name: 'cube', mesh: cube(3) },
      { name: 'ball', mesh: ellipsoid(4, 5, 6, 9, 16) },
    ];
    const glb = writeGlb(meshes);
    const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
    const jsonLength = view.getUint32(12, true);
    const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as {
      meshes: { primitives: { attributes: { POSITION: number; NORMAL: number }; indices: number }[] }[];
      accessors: { bufferView: number; count: number; componentType: number }[];
      bufferViews: { byteOffset: number; byteLength: number }[];
    };
    const bin = 20 + jsonLength + 8;
    const read = (accessor: number): DataView => {
      const a = json.accessors[accessor];
      const v = json.bufferViews[a?.bufferView ?? -1];
      if (a === undefined || v === undefined) throw new Error('missing accessor');
      return new DataView(glb.buffer, glb.byteOffset + bin + v.byteOffset, v.byteLength);
    };
    meshes.forEach(({ mesh }, m) => {
      const primitive = json.meshes[m]?.primitives[0];
      if (primitive === undefined) throw new Error('missing primitive');
      const positions = read(primitive.attributes.POSITION);
      for (let i = 0; i < mesh.positions.length; i++) {
        expect(positions.getFloat32(4 * i, true)).toBeCloseTo((mesh.positions[i] as number) / 1000, 9);
      }
      const indices = read(primitive.indices);
      for (let i = 0; i < mesh.indices.length; i++) expect(indices.getUint32(4 * i, true)).toBe(mesh.indices[i]);
      const normals = read(primitive.attributes.NORMAL);
      const x = normals.getFloat32(0, true);
      const y = normals.getFloat32(4, true);
      const z = normals.getFloat32(8, true);
      expect(Math.hypot(x, y, z)).toBeCloseTo(1, 6);
    });
  });
  it('computes outward unit vertex normals', () => {
    const m = ellipsoid(5, 5, 5, 15, 32);
    const n = vertexNormals(m, new Float64Array(m.positions.length));
    for (let i = 0; i < n.length; i += 3) {
      const dot =
        ((n[i] as number) * (m.positions[i] as number) +
          (n[i + 1] as number) * (m.positions[i + 1] as number) +
          (n[i + 2] as number) * (m.positions[i + 2] as number)) /
        5;
      expect(dot).toBeGreaterThan(0.99);
    }
  });
});
