import { Alert, Box } from '@mui/material';
import { decodeShapeModel, modelInstance, type ShapeModelFile } from '@insilico/ssm';
import type { SsmModelCard } from '@insilico/contracts';
import { useEffect, useRef, useState } from 'react';
import { Mesh, type BufferAttribute, type Group } from 'three';
import { apiFetchBytes } from '../api';
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

interface SsmShapeViewerProps {
  /** The mean shape's GLB (organs as meshes named after them, metres). */
  meanUrl: string;
  /** The model file (encodeShapeModel of @insilico/ssm), downloaded once. */
  modelUrl: string;
  parts: SsmModelCard['parts'];
  /** Standard deviations per mode, in order. */
  deviations: readonly number[];
  /** The shape's label (`mean`, `2,0,-1`), shown on the element once drawn. */
  label: string;
}

/**
 * A shape of the model in 3D (three.js, lazily loaded with this module). The mean is loaded once; every other shape
 * is drawn here from the model file (mean + Σ zₖ√λₖφₖ into the meshes' position buffers), within a frame, so the
 * sliders move the anatomy as they are dragged.
 */
export function SsmShapeViewer({ meanUrl, modelUrl, parts, deviations, label }: SsmShapeViewerProps) {
  const container = useRef<HTMLDivElement>(null);
  const scene = useRef<AnatomyScene | null>(null);
  const [loaded, setLoaded] = useState<{ group: Group; file: ShapeModelFile } | null>(null);
  const buffer = useRef<Float32Array | null>(null);
  const [error, setError] = useState<string | null>(() =>
    hasWebGl() ? null : 'The 3D view needs WebGL, which this browser does not offer.',
  );

  useEffect(() => {
    if (!container.current || error) return;
    const current = new AnatomyScene(container.current);
    scene.current = current;
    let cancelled = false;
    Promise.all([
      current.show('mean', meanUrl).then(() => current.load('mean', meanUrl)),
      apiFetchBytes(modelUrl).then(decodeShapeModel),
    ])
      .then(([group, file]) => {
        if (!cancelled) setLoaded({ group, file });
      })
      .catch((caught: unknown) => {
        if (!cancelled) setError(caught instanceof Error ? caught.message : 'The shape model could not be loaded.');
      });
    return () => {
      cancelled = true;
      current.dispose();
      scene.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- one scene and one model per mount
  }, []);

  useEffect(() => {
    if (!loaded) return;
    const started = performance.now();
    const { group, file } = loaded;
    buffer.current ??= new Float32Array(file.mean.length);
    const shape = modelInstance(file, deviations, buffer.current);
    let moved = 0;
    for (const part of parts) {
      const mesh = group.getObjectByName(part.organ);
      if (!(mesh instanceof Mesh)) continue;
      const position = mesh.geometry.getAttribute('position') as BufferAttribute;
      const target = position.array as Float32Array;
      const from = 3 * part.firstVertex;
      // The GLB is in metres; the model in mm.
      for (let i = 0; i < 3 * part.vertices; i++) target[i] = (shape[from + i] as number) * 0.001;
      position.needsUpdate = true;
      moved += part.vertices;
      mesh.geometry.computeVertexNormals();
      mesh.geometry.computeBoundingSphere();
    }
    // Written on the element (not state): nothing to re-render, and journeys can read what was drawn and how fast.
    const element = container.current;
    if (element) {
      element.dataset.shape = label;
      element.dataset.drawMs = (performance.now() - started).toFixed(2);
      element.dataset.vertices = String(moved);
    }
  }, [loaded, deviations, parts, label]);

  if (error) return <Alert severity="info">{error}</Alert>;
  return <Box ref={container} data-testid="ssm-viewer" sx={{ height: 420, borderRadius: 1, overflow: 'hidden' }} />;
}
