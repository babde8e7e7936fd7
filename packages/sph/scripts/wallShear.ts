// Wall shear stress in a running flow (issue 15; docs/validation.md, "Wall shear stress in a running flow"):
//   nice node --import tsx packages/sph/scripts/wallShear.ts [rings|mesh] [R/dp, default 6]
// Hagen–Poiseuille through the ring-built tube (`hagenPoiseuilleTube`) or the mesh tube (`openVessel` of a 96-gon),
// R = 0.5, L = 2, Re 2, to t = 1.5; over t ∈ [0.75, 1.5] the mean over the surface-layer wall particles in x ∈ [R, L − R]
// of the velocity fit (`wallShearStress`) and of the wall traction (`wallViscousTraction`), and the traction's ΣF/ΣA,
// each divided by Poiseuille's 4μū/R. About 10 minutes per tube on one loaded core.
import { wallShearStress } from '../src/derived';
import type { OpenBoundaryFluid } from '../src/openBoundary';
import { hagenPoiseuilleTube } from '../src/openCases';
import { tube } from '../test/shapes';
import { openVessel } from '../src/vessel';
import { wallViscousTraction } from '../src/wallTraction';

const [R, L, U, mu] = [0.5, 2, 1, 0.5];
const kind = process.argv[2] ?? 'rings';
const div = Number(process.argv[3] ?? 6);
const dp = R / div;
let open: OpenBoundaryFluid;
let surfaceDistance: ((x: number, y: number, z: number) => number) | undefined;
if (kind === 'rings') {
  open = hagenPoiseuilleTube({ radius: R, length: L, dp, rho0: 1, mu, meanVelocity: U }).open;
} else if (kind === 'mesh') {
  const lb = 4 * dp;
  const dpdx = (8 * mu * U) / (R * R);
  open = openVessel(tube(R, -lb - 3 * dp, L + lb + 3 * dp, 96, 16), {
    scale: 1,
    dp,
    rho0: 1,
    inlets: [{ centre: [0, 0, 0], direction: [1, 0, 0], radius: R, flowRate: Math.PI * R * R }],
    outlets: [{ centre: [L, 0, 0], direction: [1, 0, 0], radius: R, pressure: 0 }],
    mu,
    uRef: 2 * U,
    c0: 10 * Math.sqrt(dpdx * L),
  });
  // A lattice wall from a mesh needs the surface distance (docs/validation.md, "Derived outputs").
  surfaceDistance = (_x, y, z) => Math.hypot(y, z) - R;
} else throw new Error('rings or mesh');
const sim = open.sim;
const exact = (4 * mu * U) / R;
let [fit, traction, forceOverArea, samples] = [0, 0, 0, 0];
open.run(1.5, (c) => {
  if (c.time <= 0.75) return;
  const { fluid, wall } = sim;
  const est = wallShearStress(fluid, wall, surfaceDistance ? { dp, mu, surfaceDistance } : { dp, mu });
  const tr = wallViscousTraction(sim, surfaceDistance ? { surfaceDistance } : {});
  let [se, ne, st, nt, force, area] = [0, 0, 0, 0, 0, 0];
  for (let i = 0; i < wall.count; i++) {
    if (wall.x[i]! < R || wall.x[i]! > L - R) continue;
    if (est.surface[i]) {
      se += est.magnitude[i]!;
      ne++;
    }
    if (tr.surface[i]) {
      st += tr.magnitude[i]!;
      nt++;
      force += tr.traction[3 * i]! * tr.area[i]!;
      area += tr.area[i]!;
    }
  }
  fit += se / ne / exact;
  traction += st / nt / exact;
  forceOverArea += force / area / exact;
  samples++;
});
console.log(
  `${kind} R/${div}: WSS / (4μū/R) over t ∈ [0.75, 1.5]: velocity fit ${(fit / samples).toFixed(4)}, wall traction ${(traction / samples).toFixed(4)} (ΣF/ΣA ${(forceOverArea / samples).toFixed(4)})`,
);
