/**
 * Farthest-point sampling: `count` indices of the packed xyz `points`, starting from point 0, each next one the point
 * farthest from those already picked (a well-spread subset, deterministic). O(n × count). Every prefix of the result
 * is itself a farthest-point sample, so the first k indices are the well-spread k-subset.
 */
export function farthestPointSample(points: ArrayLike<number>, count: number): Uint32Array {
  return farthestPointSampling(points, count).indices;
}

/**
 * {@link farthestPointSample} with the sample's covering radius: the largest distance of any point from its nearest
 * picked point (0 when every point is picked). Picked points are at least this far apart, so it is the sample's
 * spacing, up to a factor of two.
 */
export function farthestPointSampling(
  points: ArrayLike<number>,
  count: number,
): { indices: Uint32Array; coverRadius: number } {
  const n = points.length / 3;
  const k = Math.min(n, Math.max(0, Math.floor(count)));
  const picked = new Uint32Array(k);
  const nearest = new Float64Array(n).fill(Number.POSITIVE_INFINITY);
  let next = 0;
  let far = Number.POSITIVE_INFINITY;
  for (let s = 0; s < k; s++) {
    const p = next * 3;
    const px = points[p] as number;
    const py = points[p + 1] as number;
    const pz = points[p + 2] as number;
    picked[s] = next;
    far = -1;
    for (let j = 0; j < n; j++) {
      const dx = (points[j * 3] as number) - px;
      const dy = (points[j * 3 + 1] as number) - py;
      const dz = (points[j * 3 + 2] as number) - pz;
      const d = dx * dx + dy * dy + dz * dz;
      if (d < nearest[j]!) nearest[j] = d;
      if (nearest[j]! > far) {
        far = nearest[j]!;
        next = j;
      }
    }
  }
  return { indices: picked, coverRadius: k === 0 ? Number.POSITIVE_INFINITY : Math.sqrt(Math.max(0, far)) };
}
