import { Alert, Box } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { AnatomyScene } from '../../cohorts';

/** Whether this browser can render WebGL (headless browsers use a software renderer). */
function hasWebGl(): boolean {
  try {
    return Boolean(
      document.createElement('canvas').getContext('webgl2') ?? document.createElement('canvas').getContext('webgl'),
    );
  } catch {
    return false;
  }
}

/** A shape of the model in 3D (three.js, lazily loaded with this module): `shape` is `mean` or SDs per mode. */
export function SsmShapeViewer({ shape, url, organs }: { shape: string; url: string; organs: readonly string[] }) {
  const container = useRef<HTMLDivElement>(null);
  const scene = useRef<AnatomyScene | null>(null);
  const [error, setError] = useState<string | null>(() =>
    hasWebGl() ? null : 'The 3D view needs WebGL, which this browser does not offer.',
  );
  useEffect(() => {
    if (!container.current || error) return;
    scene.current = new AnatomyScene(container.current);
    return () => {
      scene.current?.dispose();
      scene.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the scene is made once per mount
  }, []);
  useEffect(() => {
    const current = scene.current;
    if (!current) return;
    let cancelled = false;
    current
      .show(shape, url)
      .then(() => {
        if (!cancelled) current.setVisibleOrgans(new Set(organs), organs);
      })
      .catch((caught: unknown) => {
        if (!cancelled) setError(caught instanceof Error ? caught.message : 'The shape could not be loaded.');
      });
    return () => {
      cancelled = true;
    };
  }, [shape, url, organs]);
  if (error) return <Alert severity="info">{error}</Alert>;
  return (
    <Box
      ref={container}
      data-testid="ssm-viewer"
      data-shape={shape}
      sx={{ height: 420, borderRadius: 1, overflow: 'hidden' }}
    />
  );
}
