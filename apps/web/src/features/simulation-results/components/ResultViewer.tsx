import { useEffect, useRef, useState } from 'react';
import Box from '@mui/material/Box';
import { ResultScene, type ClipAxis, type ObjectFrame } from '../resultScene';

export interface ResultViewerProps {
  frames: ReadonlyMap<string, ObjectFrame>;
  range: { min: number; max: number };
  hidden: ReadonlySet<string>;
  clip: { axis: ClipAxis | null; fraction: number };
  picked: readonly string[];
  onPick: (object: string, particle: number) => void;
  /** Hands the page the screenshot function once the scene exists (null when it goes). */
  onReady: (screenshot: (() => Promise<Blob>) | null) => void;
}

/** The three.js canvas of the results page (lazily loaded with three.js): the scene follows the props. */
export function ResultViewer({ frames, range, hidden, clip, picked, onPick, onReady }: ResultViewerProps) {
  const container = useRef<HTMLDivElement | null>(null);
  const [scene, setScene] = useState<ResultScene | null>(null);
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    const created = new ResultScene(element, (object, particle) => pick.current(object, particle));
    setScene(created);
    onReady(() => created.screenshot());
    return () => {
      onReady(null);
      created.dispose();
      setScene(null);
    };
  }, [onReady]);

  useEffect(() => {
    if (!scene) return;
    scene.setPicked(picked);
    for (const [object, frame] of frames) scene.setFrame(object, frame, range);
  }, [scene, frames, range, picked]);

  useEffect(() => {
    if (!scene) return;
    for (const object of frames.keys()) scene.setVisible(object, !hidden.has(object));
  }, [scene, frames, hidden]);

  useEffect(() => {
    scene?.setClip(clip.axis, clip.fraction);
  }, [scene, clip.axis, clip.fraction, frames]);

  return (
    <Box
      ref={container}
      data-testid="result-viewer"
      role="img"
      aria-label="The particles of the result in 3D; click one to follow it on the line graph"
      sx={{ height: { xs: 360, md: 480 }, borderRadius: 1, overflow: 'hidden', bgcolor: '#11161c' }}
    />
  );
}
