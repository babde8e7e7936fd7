// Worker-thread entry of the SPH pool (started by `WorkerPool.start` through tsx): views the shared particle
// and neighbour storage, then loops waiting for commands on the shared control array until told to exit.
// Attached pass tables (other bodies, e.g. solids) are built from their `TableSpec` and run on the same loop.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { CellLinkedList } from './cellList';
import { smoothingLength } from './kernel';
import { NeighbourList } from './neighbours';
import { ParticleArrays } from './particles';
import { FluidPasses } from './passes';
import { Waiter } from './poolWait';
import { instantiateKernels } from './wasmKernels';
import {
  Command,
  Control,
  runChunks,
  Values,
  type FluidWorkerInit,
  type PassTable,
  type ReloadMessage,
  type TableSpec,
  type WorkerInit,
} from './pool';

/** The fluid's passes over the shared storage of `init`, with its neighbour lists (re-attached on `Reload`). */
function fluidPasses(init: FluidWorkerInit): FluidPasses {
  const { settings } = init;
  const fluid = new ParticleArrays(settings.dim, init.fluid.capacity, init.fluid.buffers);
  fluid.count = init.fluid.count;
  const wall = new ParticleArrays(settings.dim, init.wall.capacity, init.wall.buffers);
  wall.count = init.wall.count;
  const inner = new NeighbourList(init.inner.rows, 0, init.inner.buffers, undefined, init.inner.precision);
  const contact = new NeighbourList(init.contact.rows, 0, init.contact.buffers, undefined, init.contact.precision);
  // Same arguments as the main thread's grids (WeaklyCompressibleFluid), over the shared buffers.
  const cutoff = 2 * smoothingLength(settings.dp);
  const cells = new CellLinkedList(settings.domain, cutoff, fluid.capacity, settings.dim, init.cells);
  const wallCells = new CellLinkedList(
    settings.domain,
    cutoff,
    Math.max(1, wall.capacity),
    settings.dim,
    init.wallCells,
  );
  const passes = new FluidPasses(fluid, wall, inner, contact, cells, wallCells, settings);
  if (init.wasm) passes.useWasm(instantiateKernels(init.wasm.memory, init.wasm.module), init.wasm.memory);
  return passes;
}

/** Builds an attached table from its spec. */
async function buildTable(spec: TableSpec): Promise<PassTable> {
  const module = (await import(spec.module)) as Record<string, (data: unknown) => PassTable>;
  const factory = module[spec.factory];
  if (typeof factory !== 'function') throw new Error(`${spec.module} exports no ${spec.factory}`);
  return factory(spec.data);
}

async function main(init: WorkerInit): Promise<void> {
  const passes = init.fluid ? fluidPasses(init.fluid) : null;
  const tables: PassTable[] = [];
  const ctrl = new Int32Array(init.control);
  const values = new Float64Array(init.values);
  const t = init.index;
  // One waiter per kind of wait, each adapting to its own partner's timing (poolWait.ts).
  const commandWaiter = new Waiter(init.spin);
  const phaseWaiter = new Waiter(init.spin);
  let seen = Atomics.load(ctrl, Control.Generation);
  parentPort?.postMessage('ready');
  for (;;) {
    // Waits for a newly published command (an even generation, unchanged while the command was read).
    let command = 0;
    for (let generation = Atomics.load(ctrl, Control.Generation); ;) {
      if (generation !== seen && (generation & 1) === 0) {
        command = Atomics.load(ctrl, Control.Command);
        if (Atomics.load(ctrl, Control.Generation) === generation) {
          seen = generation;
          break;
        }
        generation = Atomics.load(ctrl, Control.Generation);
      } else generation = commandWaiter.change(ctrl, Control.Generation, generation);
    }
    if (command < Command.Reload) {
      // Errors are flagged in the control array for the main thread.
      if (passes) runChunks(passes, ctrl, values, t, init.threads, phaseWaiter);
      continue;
    }
    if (command === Command.Exit) {
      Atomics.add(ctrl, Control.Done, 1);
      Atomics.notify(ctrl, Control.Done);
      break;
    }
    try {
      if (command === Command.Reload || command === Command.Attach) {
        let message = receiveMessageOnPort(init.port);
        while (message === undefined) message = receiveMessageOnPort(init.port);
        if (command === Command.Attach) tables.push(await buildTable(message.message as TableSpec));
        else {
          const m = message.message as ReloadMessage;
          passes?.inner.attach(m.inner);
          passes?.contact.attach(m.contact);
        }
      } else if (command >= Command.TableBase) {
        const table = tables[Math.floor(command / Command.TableBase) - 1]!;
        values[Values.Partials + t] = table.runThread(command % Command.TableBase, t, init.threads, values[Values.Dt]!);
      }
    } catch {
      Atomics.store(ctrl, Control.Error, 1);
    }
    Atomics.add(ctrl, Control.Done, 1);
    Atomics.notify(ctrl, Control.Done);
  }
  init.port.close();
  // The tsx hooks keep a port open in the worker; end the thread explicitly.
  process.exit(0);
}

void main(workerData as WorkerInit);
