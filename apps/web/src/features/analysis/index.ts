export { analysisRoutes } from './routes';
// The lazily loaded chart card (spec §4 "Charts") and SVG export, shared with the simulation-result cards.
export { ChartCard, preloadCharts, type ChartCardProps } from './components/charts/ChartCard';
export type { ChartOption } from './components/charts/chartOption';
export { defaultChartFileName } from './exports';
// Saving a file the page received (the design history file's export uses it too).
export { saveBlob } from './exports';
