// The moving-wall mass balance (docs/validation.md, "Moving wall"): a closed tube squeezed by its wall through 12
// frames, the volume out of its outlet against the lumen volume lost, at R0/dp = n for each n given (default 5 7.5 10),
// with the sound speed c0 (m/s, default 3), or with a static wall:
//   node --import tsx packages/sph/scripts/moving-wall.ts [n …] [--c0=3] [--static]
import { openVessel } from '../src/index';
import { RHO, T, squeezedMotion, squeezedOptions, squeezedTube, volumeLost, R0, X2 } from '../test/squeezedTube';

const still = process.argv.includes('--static');
const c0 = Number(process.argv.find((a) => a.startsWith('--c0='))?.slice(5) ?? 3);
const ns = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map(Number);
for (const n of ns.length ? ns : [5, 7.5, 10]) {
  const dp = R0 / n;
  const started = performance.now();
  const open = openVessel(squeezedTube(0, dp), { ...squeezedOptions(n, still ? undefined : squeezedMotion(dp)), c0 });
  const start = open.crossedMass().outflow[0]!;
  const fl0 = open.sim.fluid;
  const within = (): number => {
    let v = 0;
    for (let i = 0; i < fl0.count; i++) if (fl0.x[i]! < X2 + 2 * dp) v += fl0.mass[i]! / fl0.rho[i]!;
    return v;
  };
  const v0 = within();
  const rows: string[] = [];
  for (const f of [0.125, 0.25, 0.375, 0.5]) {
    open.run(f * T);
    const t = open.sim.counters.time;
    const out = (open.crossedMass().outflow[0]! - start) / RHO;
    const lost = volumeLost(t);
    const fl = open.sim.fluid;
    let rho = 0;
    for (let i = 0; i < fl.count; i++) rho += fl.rho[i]!;
    rows.push(
      `t/T ${(t / T).toFixed(3)}: out ${(out * 1e9).toFixed(2)} mm³, lost ${(lost * 1e9).toFixed(2)} mm³, ` +
        `Σm/ρ change to X2+2dp ${((v0 - within()) * 1e9).toFixed(2)} mm³, ` +
        `error ${(((out - lost) / volumeLost(T / 2)) * 100).toFixed(2)} % of the half-period loss, mean ρ/ρ0−1 ${(rho / fl.count / RHO - 1).toExponential(2)}`,
    );
  }
  console.log(
    `R0/dp = ${n}, c0 = ${c0} m/s (${open.sim.fluid.count} fluid, ${open.sim.wall.count} wall particles, ${((performance.now() - started) / 1000).toFixed(1)} s)`,
  );
  for (const r of rows) console.log(`  ${r}`);
}
