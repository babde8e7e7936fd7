import { boundingBox } from './boundingBox';
import { formatCount } from './stlRefusal';
import { analyseTopology } from './topology';
import { triangleMeasures } from './triangleMeasures';
import type { TriangleMesh, Vec3 } from './types';

/**
 * What a device file measures and how sound its surface is. Lengths in mm: STL carries no unit, and device files
 * are taken to be in mm (as the anatomy meshes are).
 */
export interface MeshQuality {
  readonly triangleCount: number;
  /** Distinct vertices after exact welding (bit-identical float32 coordinates; −0 = +0; no tolerance). */
  readonly vertexCount: number;
  /** Axis-aligned bounding box of the vertices, mm, and its edge lengths. */
  readonly boundingBox: { readonly min: Vec3; readonly max: Vec3; readonly size: Vec3 };
  readonly surfaceArea_mm2: number;
  /**
   * Enclosed volume, mm³, when the mesh is watertight and consistently oriented (null otherwise: an open or
   * inconsistently oriented surface encloses no well-defined volume). Positive also for a mesh that faces
   * inwards; `signedVolume_mm3` keeps the sign.
   */
  readonly volume_mm3: number | null;
  /** The divergence-theorem volume with its sign (negative: triangles face inwards), when watertight; else null. */
  readonly signedVolume_mm3: number | null;
  /** No boundary edges and no non-manifold edges: every edge is shared by exactly two triangles. */
  readonly watertight: boolean;
  /** Distinct edges between welded vertices. */
  readonly edgeCount: number;
  /** Edges of only one triangle: the rims of holes or of an open surface. */
  readonly boundaryEdges: number;
  /** Edges shared by more than two triangles. */
  readonly nonManifoldEdges: number;
  /** Triangles of zero area (two corners at the same point, or all three on one line). */
  readonly degenerateTriangles: number;
  /** Edges that both of their triangles run in the same direction: one of the two is flipped. */
  readonly orientationFlips: number;
}

export type MeshFindingCode =
  'degenerate-triangles' | 'open' | 'non-manifold' | 'inconsistent-orientation' | 'inverted';

/** Something wrong with an accepted file, worth telling the user; `count` is what the message counts. */
export interface MeshFinding {
  readonly code: MeshFindingCode;
  readonly count: number;
  readonly message: string;
}

/** Metrics and topology checks of a mesh (exact-welded, e.g. from `parseStl`). */
export function measureMeshQuality(mesh: TriangleMesh): MeshQuality {
  const topology = analyseTopology(mesh);
  const measures = triangleMeasures(mesh);
  const box = boundingBox(mesh.positions);
  const watertight = topology.boundaryEdges === 0 && topology.nonManifoldEdges === 0 && topology.edges > 0;
  const signed = watertight ? measures.signedVolume_mm3 : null;
  return {
    triangleCount: topology.faces,
    vertexCount: topology.vertices,
    boundingBox: {
      min: box.min,
      max: box.max,
      size: [box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]],
    },
    surfaceArea_mm2: measures.surfaceArea_mm2,
    volume_mm3: signed !== null && topology.inconsistentEdges === 0 ? Math.abs(signed) : null,
    signedVolume_mm3: signed,
    watertight,
    edgeCount: topology.edges,
    boundaryEdges: topology.boundaryEdges,
    nonManifoldEdges: topology.nonManifoldEdges,
    degenerateTriangles: measures.zeroAreaTriangles,
    orientationFlips: topology.inconsistentEdges,
  };
}

const count = (n: number, one: string, many: string): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/** The findings (warnings) of an accepted mesh, most serious first; empty for a clean, closed, oriented mesh. */
export function meshFindings(quality: MeshQuality): MeshFinding[] {
  const findings: MeshFinding[] = [];
  const { boundaryEdges, nonManifoldEdges, orientationFlips, degenerateTriangles, signedVolume_mm3 } = quality;
  if (boundaryEdges > 0) {
    findings.push({
      code: 'open',
      count: boundaryEdges,
      message:
        `The surface is not watertight: ${count(boundaryEdges, 'edge belongs', 'edges belong')} to only one ` +
        `triangle (holes or an open surface), so no volume is given.`,
    });
  }
  if (nonManifoldEdges > 0) {
    findings.push({
      code: 'non-manifold',
      count: nonManifoldEdges,
      message: `${count(nonManifoldEdges, 'edge is', 'edges are')} shared by more than two triangles (non-manifold).`,
    });
  }
  if (orientationFlips > 0) {
    findings.push({
      code: 'inconsistent-orientation',
      count: orientationFlips,
      message:
        `The orientation is inconsistent: at ${count(orientationFlips, 'edge', 'edges')} both neighbouring ` +
        `triangles run the same way, so some triangles are flipped.`,
    });
  }
  if (degenerateTriangles > 0) {
    findings.push({
      code: 'degenerate-triangles',
      count: degenerateTriangles,
      message: `${count(degenerateTriangles, 'triangle has', 'triangles have')} zero area (degenerate).`,
    });
  }
  if (quality.volume_mm3 !== null && signedVolume_mm3 !== null && signedVolume_mm3 < 0) {
    findings.push({
      code: 'inverted',
      count: quality.triangleCount,
      message: 'The triangles face inwards (the surface is inside out); the volume is given as a positive number.',
    });
  }
  return findings;
}
