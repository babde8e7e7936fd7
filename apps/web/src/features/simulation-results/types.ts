import type { HeatmapPlotData, HistogramPlotData } from '@insilico/contracts/binning';

/** Display-widget data of spec §3, as the results page hands it to the cards. */

/** One output's series of a particle: its values by timestep. */
export interface ParticlePlotData {
  output: string;
  data: readonly number[];
}

/** Spec §3 "Selected particle item". */
export interface SelectedParticleItem {
  index: number;
  name: string;
  objectName: string;
  previewImage?: string;
  plotData: readonly ParticlePlotData[];
}

/** Spec §3 "Plot series". */
export interface PlotSeries {
  name: string;
  data: readonly (number | null)[];
  index: number;
}

/** Spec §3 "Histogram plot data" and "Heatmap plot data" (shared with the server's Range heatmap). */
export type { HeatmapPlotData, HistogramPlotData } from '@insilico/contracts/binning';

export type AnalysisPlotData = HistogramPlotData | HeatmapPlotData;

export function isHeatmapData(data: AnalysisPlotData): data is HeatmapPlotData {
  return 'timerange' in data;
}

/** Body types of the output picker; spec §3 "Analysis card inputs": the default is Solid. */
export const bodyTypes = ['Solid', 'Fluid', 'Particle'] as const;
export type BodyType = (typeof bodyTypes)[number];
export const defaultBodyType: BodyType = 'Solid';

/** Spec §3: the selected simulation output starts as 'Select' (none chosen). */
export const noOutputSelected = 'Select';
