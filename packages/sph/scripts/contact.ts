// Contact verification runs longer than the unit tests (results go to docs/validation.md, "Contact"):
//   node --import tsx packages/sph/scripts/contact.ts hertz [stiffness] [resolutions]
// Hertz's line contact (plane strain): the lower half of an elastic cylinder under its own weight on a rigid flat,
// at R/20, R/40 and R/80 (default) with the contact stiffness factor given (default 16); contact half-width and peak
// pressure on the flat against Hertz, with the observed order and Roache's GCI where the change is monotone.
import { gridConvergence } from '../src/gci';
import { hertzCylinder, measureHertz, type HertzMeasurement } from '../src/hertz';

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
  if (rows.length !== 3) return;
  const [fine, mid, coarse] = [...rows].sort((x, y) => y.n - x.n) as [
    (typeof rows)[0],
    (typeof rows)[0],
    (typeof rows)[0],
  ];
  const h: [number, number, number] = [1 / fine.n, 1 / mid.n, 1 / coarse.n];
  for (const key of ['b', 'p0'] as const) {
    const phi: [number, number, number] = [fine[key], mid[key], coarse[key]];
    const g = gridConvergence(h, phi);
    const text =
      g.kind === 'monotonic'
        ? `order ${g.order.toFixed(2)}, extrapolated ${((g.extrapolated - 1) * 100).toFixed(2)} %, GCI21 ${(g.gci21 * 100).toFixed(2)} %, asymptotic ratio ${g.asymptoticRatio.toFixed(3)}`
        : `${g.kind} (no GCI)`;
    console.log(`${key === 'b' ? 'half-width' : 'peak pressure'}: ${text}`);
  }
}

const [command = 'hertz', stiffness = '16', resolutions = '20,40,80'] = process.argv.slice(2);
if (command === 'hertz') hertz(Number(stiffness), resolutions.split(',').map(Number));
else throw new Error(`unknown command ${command}`);
