import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import type { DeidentificationManifest } from '../imaging/deidentifyZip';
import { ImagingClient, startImagingWorker, type Progress } from '../imaging/imagingClient';
import type { MaskRegion } from '@insilico/dicom';
import type { ScanResult, SeriesPreview } from '../imaging/scan';

export type ImagingSource = { kind: 'zip'; file: File } | { kind: 'folder'; files: { path: string; file: File }[] };

/** The dataset being prepared, shared by the steps of /upload-images (and the wizard's). */
export interface ImagingFlow {
  busy: boolean;
  progress: Progress | null;
  error: string | null;
  scan: ScanResult | null;
  sourceName: string;
  modifiedDates: boolean;
  excludedSeries: ReadonlySet<string>;
  keptAdditionalFiles: ReadonlySet<string>;
  /** per series id, the regions of burned-in text to blank in every image */
  maskedRegions: ReadonlyMap<string, readonly MaskRegion[]>;
  output: { zip: Blob; manifest: DeidentificationManifest } | null;
  datasetName: string;
  setDatasetName(name: string): void;
  read(source: ImagingSource, name: string): Promise<boolean>;
  setModifiedDates(on: boolean): Promise<void>;
  toggleSeries(seriesId: string, include: boolean): void;
  toggleAdditionalFile(path: string, keep: boolean): void;
  setMaskedRegions(seriesId: string, regions: readonly MaskRegion[]): void;
  preview(seriesId: string): Promise<SeriesPreview | null>;
  anonymize(): Promise<boolean>;
}

const FlowContext = createContext<ImagingFlow | null>(null);

export function useImagingFlow(): ImagingFlow {
  const flow = useContext(FlowContext);
  if (!flow) throw new Error('useImagingFlow outside ImagingFlowProvider');
  return flow;
}

/**
 * Holds the imaging worker (started on first use, stopped when the flow is left) and what the user chose. Series
 * with burned-in text start left out: the user keeps them on purpose.
 */
export function ImagingFlowProvider({ children }: { children?: ReactNode }) {
  const clientRef = useRef<ImagingClient | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [scan, setScan] = useState<ScanResult | null>(null);
  const [sourceName, setSourceName] = useState('');
  const [modifiedDates, setModifiedDatesState] = useState(false);
  const [excludedSeries, setExcluded] = useState<ReadonlySet<string>>(new Set());
  const [keptAdditionalFiles, setKept] = useState<ReadonlySet<string>>(new Set());
  const [maskedRegions, setMasked] = useState<ReadonlyMap<string, readonly MaskRegion[]>>(new Map());
  const [output, setOutput] = useState<ImagingFlow['output']>(null);
  const [datasetName, setDatasetName] = useState('');

  const client = useCallback((): ImagingClient => {
    clientRef.current ??= new ImagingClient(startImagingWorker(), setProgress);
    return clientRef.current;
  }, []);
  useEffect(
    () => () => {
      clientRef.current?.dispose();
      clientRef.current = null;
    },
    [],
  );

  const run = useCallback(async (work: () => Promise<void>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    setProgress(null);
    try {
      await work();
      return true;
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The dataset could not be read.');
      return false;
    } finally {
      setBusy(false);
    }
  }, []);

  const flow = useMemo<ImagingFlow>(
    () => ({
      busy,
      progress,
      error,
      scan,
      sourceName,
      modifiedDates,
      excludedSeries,
      keptAdditionalFiles,
      maskedRegions,
      output,
      datasetName,
      setDatasetName,
      read: (source, name) =>
        run(async () => {
          setScan(null);
          setOutput(null);
          setModifiedDatesState(false);
          const result = await client().scan(source);
          setSourceName(name);
          setScan(result);
          const flagged = result.patients.flatMap((p) =>
            p.studies.flatMap((s) => s.series.filter((x) => x.burnedIn.length > 0).map((x) => x.id)),
          );
          setExcluded(new Set(flagged));
          setKept(new Set());
          setMasked(new Map());
        }),
      setModifiedDates: async (on) => {
        setModifiedDatesState(on);
        await run(async () => setScan(await client().result(on)));
      },
      toggleSeries: (seriesId, include) =>
        setExcluded((previous) => {
          const next = new Set(previous);
          if (include) next.delete(seriesId);
          else next.add(seriesId);
          return next;
        }),
      toggleAdditionalFile: (path, keep) =>
        setKept((previous) => {
          const next = new Set(previous);
          if (keep) next.add(path);
          else next.delete(path);
          return next;
        }),
      setMaskedRegions: (seriesId, regions) =>
        setMasked((previous) => {
          const next = new Map(previous);
          if (regions.length > 0) next.set(seriesId, regions);
          else next.delete(seriesId);
          return next;
        }),
      preview: (seriesId) => client().preview(seriesId),
      anonymize: () =>
        run(async () => {
          setOutput(
            await client().deidentify({
              excludedSeries: [...excludedSeries],
              keptAdditionalFiles: [...keptAdditionalFiles],
              modifiedDates,
              maskedRegions: Object.fromEntries(maskedRegions),
            }),
          );
        }),
    }),
    [
      busy,
      progress,
      error,
      scan,
      sourceName,
      modifiedDates,
      excludedSeries,
      keptAdditionalFiles,
      maskedRegions,
      output,
      datasetName,
      run,
      client,
    ],
  );
  return <FlowContext.Provider value={flow}>{children ?? <Outlet />}</FlowContext.Provider>;
}
