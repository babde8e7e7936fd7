import { useEffect, useRef } from 'react';
import Box from '@mui/material/Box';
import type { Thumbnail } from '../imaging/scan';

const size = 64;

/** A series' first image, small, or a grey box saying there is no preview (compressed pixel data). */
export function SeriesThumbnail({ thumbnail, label }: { thumbnail: Thumbnail | null; label: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const context = canvas.current?.getContext('2d');
    if (!context || !thumbnail) return;
    const image = context.createImageData(thumbnail.width, thumbnail.height);
    thumbnail.pixels.forEach((grey, i) => {
      image.data.set([grey, grey, grey, 255], i * 4);
    });
    context.putImageData(image, 0, 0);
  }, [thumbnail]);
  if (!thumbnail)
    return (
      <Box
        role="img"
        aria-label={`No preview of ${label || 'the series'}`}
        sx={{ width: size, height: size, flex: 'none', bgcolor: 'action.hover', borderRadius: 1 }}
      />
    );
  return (
    <Box sx={{ width: size, height: size, flex: 'none', display: 'grid', placeItems: 'center', bgcolor: 'black' }}>
      <canvas
        ref={canvas}
        width={thumbnail.width}
        height={thumbnail.height}
        role="img"
        aria-label={`First image of ${label || 'the series'}`}
        data-testid="series-thumbnail"
      />
    </Box>
  );
}
