import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import Alert from '@mui/material/Alert';
import { fetchColumns, fetchHeatmap } from '../api';
import { bodyTypeOf, countAt, fillTemplate, scalarValues, valueOutputs, type ResultManifest } from '../resultData';
import { noOutputSelected, type AnalysisPlotData, type BodyType } from '../types';
import { defaultBinCount, type PlotRequest } from '../worker/binningProtocol';
import { startBinningWorker } from '../worker/startBinningWorker';
import { HistogramCard } from './HistogramCard';

type BinningClient = ReturnType<typeof startBinningWorker>;

export interface DistributionPanelProps {
  manifest: ResultManifest;
  frameUrlTemplate: string;
  /** The server's Range heatmap (`SimulationResults.heatmapUrl`): a range is binned there, not in the browser. */
  heatmapUrl: string;
  /** Injected in tests (a worker in the same thread); the page starts the real Web Worker. */
  startWorker?: () => BinningClient;
  /** A predefined plot's choice to start from (e.g. the wall's wall shear stress); otherwise every object, none. */
  initial?: { objects: string[]; output: string };
  title?: string;
  fileName?: string;
}

/**
 * The histogram/heatmap card wired to a result (issue 16 item 7): for a histogram the chosen output of the chosen
 * objects of a body type is fetched one timestep column at a time (each once) and handed to the binning Web Worker,
 * which answers with bin counts only; a Range heatmap is binned by the server next to the stored frames (the same
 * binning code), so only its counts travel. The particles never sit on the main thread all at once.
 */
export function DistributionPanel({
  manifest,
  frameUrlTemplate,
  heatmapUrl,
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
  // The latest Range request: an older answer arriving late is dropped.
  const latestRange = useRef<PlotRequest | null>(null);

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
    async (request: Extract<PlotRequest, { mode: 'timestep' }>) => {
      const client = worker.current;
      if (!client || activeOutput === noOutputSelected) return;
      const key = plotKey;
      // A Range answer still on its way must not replace this histogram.
      latestRange.current = null;
      if (loaded.current?.key !== key)
        loaded.current = { key, timesteps: new Set(), ready: client.reset(manifest.timesteps.length) };
      const state = loaded.current;
      const t = request.timestep;
      try {
        await state.ready;
        if (t >= 0 && t < manifest.timesteps.length && !state.timesteps.has(t)) {
          const values = await timestepValues(t);
          // The card moved on to another output or objects meanwhile: this request is stale.
          if (loaded.current !== state) return;
          await client.put(t, values);
          state.timesteps.add(t);
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

  const reloadRange = useCallback(
    async (request: Extract<PlotRequest, { mode: 'range' }>) => {
      if (activeOutput === noOutputSelected) return;
      const key = plotKey;
      // Binned on the server next to the stored frames: a range of 200 timesteps of 100k particles is 80 MB of
      // values but a few KB of bin counts (docs/benchmarks.md).
      latestRange.current = request;
      try {
        const answer = await fetchHeatmap(heatmapUrl, {
          objects: chosen.filter((o) => o.columns.some((c) => c.name === activeOutput)).map((o) => o.name),
          output: activeOutput,
          start: request.start,
          end: request.end,
          bins: request.bins,
        });
        if (latestRange.current === request) setPlot({ key, data: answer });
        setError(null);
      } catch (caught) {
        setError(caught instanceof Error ? caught.message : String(caught));
      }
    },
    [activeOutput, chosen, heatmapUrl, plotKey],
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
        onReload={(request) => void (request.mode === 'range' ? reloadRange(request) : reload(request))}
        fileName={fileName}
        {...(title ? { title } : {})}
      />
    </>
  );
}
