/** Ellipse geometry used to keep annulus diameters, perimeters and areas consistent. */

/** Area of an ellipse from its two full diameters (mm → mm²): π/4·a·b. */
export function ellipseArea_mm2(majorDiameter_mm: number, minorDiameter_mm: number): number {
  return (Math.PI / 4) * majorDiameter_mm * minorDiameter_mm;
}

/**
 * Perimeter of an ellipse from its two full diameters (mm), Ramanujan's second approximation
 * (relative error < 1e-9 for the eccentricities of heart valve annuli, min/max ≥ 0.5).
 */
export function ellipsePerimeter_mm(majorDiameter_mm: number, minorDiameter_mm: number): number {
  const a = majorDiameter_mm / 2;
  const b = minorDiameter_mm / 2;
  const h = ((a - b) * (a - b)) / ((a + b) * (a + b));
  return Math.PI * (a + b) * (1 + (3 * h) / (10 + Math.sqrt(4 - 3 * h)));
}

/**
 * Major and minor diameters (mm) of the ellipse with the given mean diameter (major+minor)/2 and
 * ratio minor/major (0 < ratio ≤ 1). Writes [major, minor] into `out` and returns it.
 */
export function ellipseDiameters_mm(meanDiameter_mm: number, ratio: number, out: Float64Array): Float64Array {
  const major = (2 * meanDiameter_mm) / (1 + ratio);
  out[0] = major;
  out[1] = ratio * major;
  return out;
}
