import { useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import CloseIcon from '@mui/icons-material/Close';

interface ScreenshotPreviewProps {
  /** The small image shown in place. */
  thumbnailUrl: string;
  /** The full image the modal shows. */
  fullUrl: string;
  label?: string;
}

/**
 * A small screenshot that opens a preview modal when clicked (spec §2 reusable widgets); the modal
 * closes by its button, by Escape, or by a click outside.
 */
export function ScreenshotPreview({ thumbnailUrl, fullUrl, label = 'Screenshot' }: ScreenshotPreviewProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ButtonBase
        onClick={() => setOpen(true)}
        aria-label={`Open ${label.toLowerCase()}`}
        sx={{ borderRadius: 2, overflow: 'hidden', border: 1, borderColor: 'divider', width: 112, height: 112 }}
      >
        <Box
          component="img"
          src={thumbnailUrl}
          alt={label}
          sx={{ width: '100%', height: '100%', objectFit: 'cover' }}
        />
      </ButtonBase>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg" aria-labelledby="screenshot-preview-title">
        <DialogTitle id="screenshot-preview-title" sx={{ pr: 7 }}>
          {label}
          <IconButton
            aria-label="Close"
            onClick={() => setOpen(false)}
            sx={{ position: 'absolute', right: 12, top: 12 }}
          >
            <CloseIcon />
          </IconButton>
        </DialogTitle>
        <DialogContent>
          <Box
            component="img"
            src={fullUrl}
            alt={label}
            sx={{ display: 'block', maxWidth: '100%', maxHeight: '75vh', mx: 'auto' }}
          />
        </DialogContent>
      </Dialog>
    </>
  );
}
