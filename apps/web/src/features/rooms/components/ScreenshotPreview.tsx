import { useId } from 'react';
import type { RoomScreenshot } from '@insilico/contracts';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { formatDateTime } from '../../../lib/formatDate';

/**
 * The screenshot preview modal (spec §2 widget 3): opened by a click on the small image; closes by its button,
 * by Escape, or by a click outside (MUI's dialog gives the last two).
 */
export function ScreenshotPreview({ shot, onClose }: { shot: RoomScreenshot | null; onClose: () => void }) {
  const id = useId();
  return (
    <Dialog open={shot !== null} onClose={onClose} maxWidth="lg" aria-labelledby={`${id}-t`}>
      {shot && (
        <>
          <DialogTitle id={`${id}-t`} sx={{ pr: 7 }}>
            Screenshot
            <Typography variant="body2" color="text.secondary" component="span" sx={{ ml: 1 }}>
              {formatDateTime(shot.createdAt)}
              {shot.createdBy ? ` · ${shot.createdBy.name}` : ''}
            </Typography>
            <IconButton
              aria-label="Close the preview"
              onClick={onClose}
              sx={{ position: 'absolute', right: 8, top: 8 }}
            >
              <CloseIcon />
            </IconButton>
          </DialogTitle>
          <DialogContent>
            <Box
              component="img"
              src={shot.url}
              alt={`Screenshot of the scene taken ${formatDateTime(shot.createdAt)}`}
              sx={{ display: 'block', maxWidth: '100%', maxHeight: '75vh', mx: 'auto', borderRadius: 1 }}
            />
          </DialogContent>
        </>
      )}
    </Dialog>
  );
}
