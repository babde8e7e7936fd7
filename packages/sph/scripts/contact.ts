// Contact verification runs longer than the unit tests (results go to docs/validation.md, "Contact"):
//   node --import tsx packages/sph/scripts/contact.ts hertz [stiffness] [resolutions]
//   node --import tsx packages/sph/scripts/contact.ts hertz-sphere [stiffness] [resolutions] [load ρgR/E*]
// Hertz's line contact (plane strain): the lower half of an elastic cylinder under its own weight on a rigid flat,
// at R/20, R/40 and R/80 (default) with the contact stiffness factor given (default 16); contact half-width and peak
// pressure on the flat against Hertz, with the observed order and Roache's GCI where the change is monotone.
import { gridConvergence } from '../src/gci';
import { hertzCylinder, hertzSphere, measureHertz, measureHertzSphere, type HertzMeasurement } from '../src/hertz';

function hertz(stiffness: number, resolutions: number[]): void {
  const rows: { n: number; m: HertzMeasurement; b: number; p0: number; seconds: number; particles: number }[] = [];
  for (const n of resolutions) {
    const c = hertzCylinder({ resolution: n, stiffness });
    const t0 = performance.now();
    c.simulation.run(c.endTime);
    const m = measureHertz(c.contact);
    const row = {
      n,
      m,
      b: m.halfWidth / c.analytic.halfWidth,
      p0: m.peakPressure / c.analytic.peakPressure,
      seconds: (performance.now() - t0) / 1000,
      particles: c.solid.particles.count,
    };
    rows.push(row);
    console.log(
      `R/${n} (${row.particles} particles, ${c.simulation.counters.steps} steps, ${row.seconds.toFixed(0)} s): ` +
        `force/load ${(m.force / c.load).toFixed(4)}, half-width ${((row.b - 1) * 100).toFixed(2)} %, ` +
        `peak pressure ${((row.p0 - 1) * 100).toFixed(2)} % (b/dp = ${(c.analytic.halfWidth * n).toFixed(1)})`,
    );
  }
  printConvergence<'b' | 'p0'>(rows, { b: 'half-width', p0: 'peak pressure' });
}

/** Observed order and Roache's GCI of each named ratio (measured / analytic) over three resolutions R/n. */
function printConvergence<K extends string>(
  rows: ({ n: number } & Record<K, number>)[],
  names: Record<K, string>,
): void {
  if (rows.length !== 3) return;
  const [fine, mid, coarse] = [...rows].sort((x, y) => y.n - x.n) as [
    (typeof rows)[0],
    (typeof rows)[0],
    (typeof rows)[0],
  ];
  const h: [number, number, number] = [1 / fine.n, 1 / mid.n, 1 / coarse.n];
  for (const key of Object.keys(names) as K[]) {
    const g = gridConvergence(h, [fine[key], mid[key], coarse[key]]);
    const text =
      g.kind === 'monotonic'
        ? `order ${g.order.toFixed(2)}, extrapolated ${((g.extrapolated - 1) * 100).toFixed(2)} %, GCI21 ${(g.gci21 * 100).toFixed(2)} %, asymptotic ratio ${g.asymptoticRatio.toFixed(3)}`
        : `${g.kind} (no GCI)`;
    console.log(`${names[key]}: ${text}`);
  }
}

/**
 * Hertz's point contact (3D): the lower half of an elastic sphere (R = 1) under its own weight on a rigid flat, at
 * the resolutions given (default R/10, R/14, R/20); contact radius (from the sphere's particle forces, and as read on
 * the flat), peak pressure on the flat and the indentation a²/R against Hertz for the load, with the observed order
 * and Roache's GCI for three resolutions.
 */
function sphere(stiffness: number, resolutions: number[], load: number): void {
  const rows: { n: number; a: number; aFlat: number; p0: number; delta: number }[] = [];
  for (const n of resolutions) {
    const c = hertzSphere({ resolution: n, stiffness, load });
    const t0 = performance.now();
    c.simulation.run(c.endTime);
    const m = measureHertzSphere(c.contact, 1);
    const seconds = (performance.now() - t0) / 1000;
    const row = {
      n,
      a: m.contactRadius / c.analytic.contactRadius,
      aFlat: m.contactRadiusOnFlat / c.analytic.contactRadius,
      p0: m.peakPressure / c.analytic.peakPressure,
      delta: m.indentation / c.analytic.indentation,
    };
    rows.push(row);
    const dp = 1 / n;
    console.log(
      `R/${n} (${c.solid.particles.count} particles, ${c.simulation.counters.steps} steps, ${seconds.toFixed(0)} s): ` +
        `force/load ${(m.force / c.load).toFixed(4)}, contact radius ${((row.a - 1) * 100).toFixed(2)} % ` +
        `(a − a_Hertz = ${((m.contactRadius - c.analytic.contactRadius) / dp).toFixed(3)} dp; on the flat ` +
        `${((row.aFlat - 1) * 100).toFixed(2)} %), peak pressure on the flat ${((row.p0 - 1) * 100).toFixed(2)} %, ` +
        `indentation a²/R ${((row.delta - 1) * 100).toFixed(2)} % (a/dp = ${(c.analytic.contactRadius * n).toFixed(2)})`,
    );
  }
  printConvergence<'a' | 'aFlat' | 'p0' | 'delta'>(rows, {
    a: 'contact radius',
    aFlat: 'contact radius on the flat',
    p0: 'peak pressure on the flat',
    delta: 'indentation',
  });
}

const [command = 'hertz', stiffness = '16', resolutions, load = '0.01'] = process.argv.slice(2);
if (command === 'hertz') hertz(Number(stiffness), (resolutions ?? '20,40,80').split(',').map(Number));
else if (command === 'hertz-sphere') {
  sphere(Number(stiffness), (resolutions ?? '10,14,20').split(',').map(Number), Number(load));
} else throw new Error(`unknown command ${command}`);
