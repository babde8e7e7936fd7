// `node --import tsx packages/sph/scripts/gpu-compare.ts <case>`: runs one case on the WebGPU backend and on the CPU's
// TypeScript reference (float64) and prints one JSON line: the adapter, both runs' counters and the largest
// difference of each field (or {"unavailable": "<why>"} where no adapter can be created). Cases: dam2d (dp 0.05 to
// t = 0.3), column3d (a 0.4³ column at dp 0.1 in a 3D tank to t = 0.3), repeat (the 2D dam break at dp 0.1 to t = 0.2 twice on the GPU: "identical"),
// periodic (a periodic channel: the refusal's message). Used by src/gpuFluid.test.ts, which runs it in a child
// process so that no WebGPU instance lives in the test runner.
import { writeSync } from 'node:fs';
import { collapsingColumn3d, damBreak, poiseuilleChannel } from '../src/cases';
import { type WeaklyCompressibleFluid } from '../src/fluid';
import { GpuUnavailableError, openGpu, type GpuContext } from '../src/gpuDevice';
import { GpuFluid } from '../src/gpuFluid';

const FIELDS = ['x', 'y', 'z', 'vx', 'vy', 'vz', 'p', 'rho'] as const;

async function runOnGpu(gpu: GpuContext, sim: WeaklyCompressibleFluid, end: number): Promise<WeaklyCompressibleFluid> {
  const fluid = await GpuFluid.create(sim, gpu);
  try {
    await fluid.run(end);
    await fluid.download();
  } finally {
    // fluid.destroy();
  }
  return sim;
}

async function main(name: string): Promise<Record<string, unknown>> {
  const cases: Record<string, { make: () => WeaklyCompressibleFluid; end: number }> = {
    dam2d: { make: () => damBreak({ dp: 0.05 }), end: 0.3 },
    column3d: { make: () => collapsingColumn3d({ backend: 'ts' }), end: 0.3 },
    repeat: { make: () => damBreak({ dp: 0.1 }), end: 0.2 },
    periodic: {
      make: () => poiseuilleChannel({ height: 1, length: 1, dp: 0.1, mu: 0.1, rho0: 1, meanVelocity: 1 }),
      end: 0,
    },
  };
  const chosen = cases[name];
  if (!chosen) throw new Error(`unknown case '${name}'`);
  // The CPU reference first, then the device.
  const cpu = name === 'dam2d' || name === 'column3d' ? chosen.make() : null;
  cpu?.run(chosen.end);
  const sims = name === 'repeat' ? [chosen.make(), chosen.make()] : [chosen.make()];
  let gpu: GpuContext;
  try {
    gpu = await openGpu();
  } catch (error) {
    if (error instanceof GpuUnavailableError) return { unavailable: error.message };
    throw error;
  }
  const adapter = gpu.adapter;
  try {
    if (name === 'periodic') {
      try {
        await GpuFluid.create(sims[0]!, gpu);
        return { adapter, refused: null };
      } catch (error) {
        return { adapter, refused: error instanceof Error ? error.message : String(error) };
      }
    }
    for (const sim of sims) await runOnGpu(gpu, sim, chosen.end);
    if (name === 'repeat') {
      const bytes = sims.map((sim) =>
        Buffer.concat([sim.fluid.x, sim.fluid.p].map((a) => Buffer.from(a.buffer, a.byteOffset, sim.fluid.count * 8))),
      );
      return { adapter, identical: bytes[0]!.equals(bytes[1]!) };
    }
    const onGpu = sims[0]!;
    const difference: Record<string, number> = {};
    for (const f of FIELDS) {
      let m = 0;
      for (let i = 0; i < cpu!.fluid.count; i++) m = Math.max(m, Math.abs(cpu!.fluid[f][i]! - onGpu.fluid[f][i]!));
      difference[f] = m;
    }
    return { adapter, cpu: cpu!.counters, gpu: onGpu.counters, difference };
  } finally {
    gpu.device.destroy();
  }
}

const result = await main(process.argv[2] ?? '');
writeSync(1, `\nRESULT ${JSON.stringify(result)}\n`);
process.exit(0);
