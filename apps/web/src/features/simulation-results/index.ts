// The simulation-result cards (issue 16 items 6 and 7) for the results page: they take data and callbacks as props
// (spec §3 "Display-widget data"); the page computes bins with the binning worker.
export { LineGraphCard, type LineGraphCardProps } from './components/LineGraphCard';
export { HistogramCard, type HistogramCardProps, type AnalysisMode } from './components/HistogramCard';
export { particleNameTaken } from './components/ParticleList';
export { startBinningWorker } from './worker/startBinningWorker';
export { computePlot, defaultBinCount, type BinChoice, type PlotRequest } from './worker/binningProtocol';
export type {
  AnalysisPlotData,
  BodyType,
  HeatmapPlotData,
  HistogramPlotData,
  PlotSeries,
  SelectedParticleItem,
} from './types';
// The results page (issue 16 item 5), mounted by features/rooms at /projects/room/analyses with the room's gallery.
export { SimulationResultsPage, type SimulationResultsPageProps } from './components/SimulationResultsPage';
