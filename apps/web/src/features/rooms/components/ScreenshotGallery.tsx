import { useState } from 'react';
import type { RoomScreenshot, RoomScreenshotList } from '@insilico/contracts';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { ScreenshotPreviewModal } from '../../../components/ScreenshotPreviewModal';
import type { ApiError } from '../../../lib/apiError';
import { formatDateTime } from '../../../lib/formatDate';

interface ScreenshotGalleryProps {
  data: RoomScreenshotList | undefined;
  error: ApiError | undefined;
  retry: () => void;
}

/** The room's screenshots as small images, newest first; a click opens the preview modal. */
export function ScreenshotGallery({ data, error, retry }: ScreenshotGalleryProps) {
  const [preview, setPreview] = useState<RoomScreenshot | null>(null);
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Screenshots">
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Screenshots
      </Typography>
      {error && !data ? (
        <LoadFailure what="The screenshots" error={error} retry={retry} />
      ) : !data ? (
        <Loading what="the screenshots" />
      ) : data.items.length === 0 ? (
        <Typography color="text.secondary">
          No screenshot yet. Take one of the scene to keep it in the room’s gallery.
        </Typography>
      ) : (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(128px, 1fr))', gap: 1 }}>
          {data.items.map((shot) => (
            <ButtonBase
              key={shot.id}
              onClick={() => setPreview(shot)}
              aria-label={`Preview the screenshot of ${formatDateTime(shot.createdAt)}`}
              sx={{ borderRadius: 1, overflow: 'hidden', display: 'block' }}
            >
              <Box
                component="img"
                src={shot.thumbnailUrl}
                alt=""
                sx={{ width: '100%', aspectRatio: '1', objectFit: 'cover', display: 'block', bgcolor: '#11161c' }}
              />
            </ButtonBase>
          ))}
        </Box>
      )}
      {preview && (
        <ScreenshotPreviewModal
          open
          src={preview.url}
          alt={`Screenshot of the scene taken ${formatDateTime(preview.createdAt)}`}
          subtitle={`${formatDateTime(preview.createdAt)}${preview.createdBy ? ` · ${preview.createdBy.name}` : ''}`}
          onClose={() => setPreview(null)}
        />
      )}
    </Paper>
  );
}
