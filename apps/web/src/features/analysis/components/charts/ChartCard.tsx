import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DownloadIcon from '@mui/icons-material/Download';
import { defaultChartFileName, downloadSvg } from '../../exports';
import type { ChartOption } from './chartOption';

// The chart library is its own chunk, fetched when the first chart shows (spec §7 "Lazy loading").
const loadEChart = () => import('./EChart');
const EChart = lazy(loadEChart);

/**
 * Starts fetching the chart library's chunk before any chart shows, for a page that will draw charts once its data
 * arrives: the chunk then loads while the page waits on the server instead of after (the results page).
 */
export function preloadCharts(): void {
  void loadEChart().catch(() => undefined);
}

export interface ChartCardProps {
  title: string;
  option: ChartOption;
  /** No data to draw: the card says 'No graph data' instead of an empty frame. */
  empty: boolean;
  /** The exported file's name without extension (spec §7: default 'graph'). */
  fileName?: string;
  height?: number;
  /** Controls above the chart (parameter pickers, toggles). */
  controls?: ReactNode;
  onItemClick?: (dataIndex: number, seriesIndex: number) => void;
  /** See EChart: the toolbox's restore button, and a tooltip from the data coordinates under the pointer. */
  onRestore?: () => void;
  pointerTooltip?: (x: number, y: number) => string | null;
  /** Beside the title, before the SVG button (e.g. a header image). */
  headerExtra?: ReactNode;
}

/** A titled chart with SVG export, 'Loading chart...' while the library loads and 'No graph data' when empty. */
export function ChartCard({
  title,
  option,
  empty,
  fileName = defaultChartFileName,
  height = 280,
  controls,
  onItemClick,
  onRestore,
  pointerTooltip,
  headerExtra,
}: ChartCardProps) {
  const [toSvg, setToSvg] = useState<(() => string) | null>(null);
  // A function is stored as state through an updater, or React would call it.
  const onReady = useCallback((exporter: (() => string) | null) => setToSvg(() => exporter), []);
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
          <Typography variant="h3" component="h3" sx={{ fontSize: 18 }}>
            {title}
          </Typography>
          {headerExtra}
          <Button
            size="small"
            startIcon={<DownloadIcon aria-hidden="true" />}
            disabled={empty || !toSvg}
            onClick={() => toSvg && downloadSvg(toSvg(), fileName)}
            aria-label={`Export ${title} as SVG`}
          >
            SVG
          </Button>
        </Stack>
        {controls}
        {empty ? (
          <Typography color="text.secondary" sx={{ py: 4, textAlign: 'center' }}>
            No graph data
          </Typography>
        ) : (
          <Suspense
            fallback={
              <Typography role="status" color="text.secondary" sx={{ height, display: 'grid', placeItems: 'center' }}>
                Loading chart...
              </Typography>
            }
          >
            <EChart
              option={option}
              height={height}
              onReady={onReady}
              onItemClick={onItemClick}
              onRestore={onRestore}
              pointerTooltip={pointerTooltip}
            />
          </Suspense>
        )}
      </CardContent>
    </Card>
  );
}
