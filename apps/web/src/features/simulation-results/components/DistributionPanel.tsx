import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import { fetchColumns } from '../api';
import { bodyTypeOf, countAt, fillTemplate, scalarValues, valueOutputs, type ResultManifest } from '../resultData';
import { noOutputSelected, type AnalysisPlotData, type BodyType } from '../types';
import { defaultBinCount, type PlotRequest } from '../worker/binningProtocol';
import { startBinningWorker } from '../worker/startBinningWorker';
import { HistogramCard } from './HistogramCard';

type BinningClient = ReturnType<typeof startBinningWorker>;

/** Timesteps fetched at once while a range is gathered. */
const parallelFetches = 6;

export interface DistributionPanelProps {
  manifest: ResultManifest;
  frameUrlTemplate: string;
  /** Injected in tests (a worker in the same thread); the page starts the real Web Worker. */
  startWorker?: () => BinningClient;
  /** A predefined plot's choice to start from (e.g. the wall's wall shear stress); otherwise every object, none. */
  initial?: { objects: string[]; output: string };
  title?: string;
  fileName?: string;
}

/**
 * The histogram/heatmap card wired to a result (issue 16 item 7): the chosen output of the chosen objects of a body
 * type is fetched one timestep column at a time (only the timesteps a plot needs, each once) and handed to the
 * binning Web Worker, which answers with bin counts only: the particles never sit on the main thread all at once.
 */
export function DistributionPanel({
  manifest,
  frameUrlTemplate,
  startWorker = startBinningWorker,
  initial,
  title,
  fileName = 'distribution',
}: DistributionPanelProps) {
  const objects = useMemo(() => manifest.objects.map((o) => o.name), [manifest]);
  const [bodyType, setBodyType] = useState<BodyType>(() => {
    const first = manifest.objects.find((o) => !initial || initial.objects.includes(o.name));
    return bodyTypeOf(first?.kind ?? 'solid');
  });
  const [selectedObjects, setSelectedObjects] = useState<string[]>(initial?.objects ?? objects);
  const [output, setOutput] = useState<string>(initial?.output ?? noOutputSelected);
  // The plot with the objects and output it was computed for: another choice shows nothing until its own arrives.
  const [plot, setPlot] = useState<{ key: string; data: AnalysisPlotData } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const worker = useRef<BinningClient | null>(null);
  // Which timesteps the worker holds for which objects and output.
  const loaded = useRef<{ key: string; timesteps: Set<number>; ready: Promise<unknown> } | null>(null);

  useEffect(() => {
    const client = startWorker();
    worker.current = client;
    return () => {
      client.dispose();
      worker.current = null;
      loaded.current = null;
    };
  }, [startWorker]);

  const chosen = useMemo(
    () => manifest.objects.filter((o) => selectedObjects.includes(o.name) && bodyTypeOf(o.kind) === bodyType),
    [manifest, selectedObjects, bodyType],
  );
  const outputs = useMemo(() => [...new Set(chosen.flatMap(valueOutputs))], [chosen]);
  const activeOutput = outputs.includes(output) ? output : noOutputSelected;
  const plotKey = `${chosen.map((o) => o.name).join(',')}|${activeOutput}|${manifest.timesteps.length}`;
  const plotData = plot?.key === plotKey ? plot.data : null;

  const reload = useCallback(
    async (request: PlotRequest) => {
      const client = worker.current;
      if (!client || activeOutput === noOutputSelected) return;
      const key = plotKey;
      if (loaded.current?.key !== key)
        loaded.current = { key, timesteps: new Set(), ready: client.reset(manifest.timesteps.length) };
      const state = loaded.current;
      const lo = request.mode === 'timestep' ? request.timestep : Math.min(request.start, request.end);
      const hi = request.mode === 'timestep' ? request.timestep : Math.max(request.start, request.end);
      // A range shorter than 1 step is widened by the worker (spec §5): the neighbours come along.
      const wanted = request.mode === 'timestep' ? [lo] : hi - lo < 1 ? range(lo - 1, hi + 2) : range(lo, hi + 1);
      const missing = wanted.filter((t) => t >= 0 && t < manifest.timesteps.length && !state.timesteps.has(t));
      try {
        await state.ready;
        for (let i = 0; i < missing.length; i += parallelFetches) {
          const batch = missing.slice(i, i + parallelFetches);
          const values = await Promise.all(batch.map((t) => timestepValues(t)));
          // The card moved on to another output or objects meanwhile: this request is stale.
          if (loaded.current !== state) return;
          await Promise.all(batch.map((t, k) => client.put(t, values[k]!)));
          batch.forEach((t) => state.timesteps.add(t));
        }
        const answer = await client.plot(request);
        if (answer) setPlot({ key, data: answer });
        setError(null);
      } catch (caught) {
        setError(caught instanceof Error ? caught.message : String(caught));
      }

      /** One timestep's values of the output over the chosen objects (vectors as magnitudes). */
      async function timestepValues(t: number): Promise<Float32Array> {
        const parts = await Promise.all(
          chosen
            .filter((o) => o.columns.some((c) => c.name === activeOutput))
            .map(async (object) => {
              const count = countAt(manifest, object, t);
              const url = fillTemplate(frameUrlTemplate, { object: object.name, timestep: t });
              const columns = await fetchColumns(url, object, count, [activeOutput]);
              const components = object.columns.find((c) => c.name === activeOutput)!.components;
              return scalarValues(columns[activeOutput]!, components, count);
            }),
        );
        const all = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
        let offset = 0;
        for (const part of parts) {
          all.set(part, offset);
          offset += part.length;
        }
        return all;
      }
    },
    [activeOutput, chosen, frameUrlTemplate, manifest, plotKey],
  );

  // A first histogram as soon as an output is chosen (timestep 1, the default amount of bins).
  useEffect(() => {
    if (activeOutput !== noOutputSelected)
      void reload({ mode: 'timestep', timestep: 0, bins: { binCount: defaultBinCount } });
  }, [activeOutput, reload]);

  return (
    <>
      {error && <Alert severity="error">The distribution could not be computed. {error}</Alert>}
      <HistogramCard
        objects={objects}
        selectedObjects={selectedObjects}
        onSelectedObjectsChange={setSelectedObjects}
        bodyType={bodyType}
        onBodyTypeChange={setBodyType}
        outputs={outputs}
        output={activeOutput}
        onOutputChange={setOutput}
        maxTimestamp={manifest.timesteps.length}
        plotData={plotData}
        slidersDisabled={manifest.timesteps.length < 2}
        onReload={(request) => void reload(request)}
        fileName={fileName}
        {...(title ? { title } : {})}
      />
    </>
  );
}

function range(start: number, endExclusive: number): number[] {
  return Array.from({ length: Math.max(0, endExclusive - start) }, (_, k) => start + k);
}
