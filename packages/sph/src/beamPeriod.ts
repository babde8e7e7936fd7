import type { OscillatingBeam } from './cases';

/**
 * First-mode period (s) of the oscillating cantilever from its quarter period: SPHinXsys's initial velocity is the
 * first bending mode, so the tip deflection is A sin(2πt/T) and peaks at T/4. Steps the solid until the mean tip
 * deflection has passed its peak (above `minimumPeak` m), refines the peak time by the parabola through the largest
 * sample and its neighbours, and returns 4 × that time with the peak deflection.
 */
export function quarterPeriod(beam: OscillatingBeam, minimumPeak = 0.05): { period: number; peak: number } {
  const { solid, tip, analyticPeriod } = beam;
  const deflection = (): number => tip.reduce((s, i) => s + solid.particles.y[i]! - solid.y0[i]!, 0) / tip.length;
  const samples: [number, number][] = [[solid.counters.time, deflection()]];
  while (solid.counters.time < analyticPeriod / 2) {
    solid.step(analyticPeriod);
    samples.push([solid.counters.time, deflection()]);
    const n = samples.length;
    if (n > 3 && samples[n - 1]![1] < samples[n - 2]![1] && samples[n - 2]![1] > minimumPeak) break;
  }
  const [[t0, d0], [t1, d1], [t2, d2]] = samples.slice(-3) as [[number, number], [number, number], [number, number]];
  // Vertex of the parabola through the three points.
  const num = (t1 - t0) ** 2 * (d1 - d2) - (t1 - t2) ** 2 * (d1 - d0);
  const den = (t1 - t0) * (d1 - d2) - (t1 - t2) * (d1 - d0);
  return { period: 4 * (t1 - num / (2 * den)), peak: d1 };
}
