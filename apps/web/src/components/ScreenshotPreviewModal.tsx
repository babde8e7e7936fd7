import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';

export interface ScreenshotPreviewModalProps {
  open: boolean;
  /** The full image. */
  src: string;
  /** The image's description for screen readers. */
  alt: string;
  /** The dialog's name. */
  title?: string;
  /** A quieter line next to the title (e.g. when and by whom it was taken). */
  subtitle?: string;
  onClose: () => void;
}

/**
 * The screenshot preview modal (spec §2 widget 3): it closes by its button, by Escape, or by a click outside (MUI's
 * dialog gives the last two). One modal for the whole app: room galleries, support requests, simulation results.
 */
export function ScreenshotPreviewModal({
  open,
  src,
  alt,
  title = 'Screenshot',
  subtitle,
  onClose,
}: ScreenshotPreviewModalProps) {
  const id = useId();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="lg" aria-labelledby={`${id}-t`}>
      <DialogTitle id={`${id}-t`} sx={{ pr: 7 }}>
        {title}
        {subtitle && (
          <Typography variant="body2" color="text.secondary" component="span" sx={{ ml: 1 }}>
            {subtitle}
          </Typography>
        )}
        <IconButton aria-label="Close the preview" onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
          <CloseIcon />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        <Box
          component="img"
          src={src}
          alt={alt}
          sx={{ display: 'block', maxWidth: '100%', maxHeight: '75vh', mx: 'auto', borderRadius: 1 }}
        />
      </DialogContent>
    </Dialog>
  );
}

export interface ScreenshotThumbnailProps {
  /** The small image shown in place. */
  thumbnailUrl: string;
  /** The full image the modal shows. */
  fullUrl: string;
  label?: string;
  /** Side of the square thumbnail in px. */
  size?: number;
}

/** A small screenshot that opens the preview modal when clicked (spec §2 widget 3). */
export function ScreenshotThumbnail({
  thumbnailUrl,
  fullUrl,
  label = 'Screenshot',
  size = 112,
}: ScreenshotThumbnailProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <ButtonBase
        onClick={() => setOpen(true)}
        aria-label={`Open ${label.toLowerCase()}`}
        sx={{ borderRadius: 2, overflow: 'hidden', border: 1, borderColor: 'divider', width: size, height: size }}
      >
        <Box component="img" src={thumbnailUrl} alt="" sx={{ width: '100%', height: '100%', objectFit: 'cover' }} />
      </ButtonBase>
      <ScreenshotPreviewModal open={open} src={fullUrl} alt={label} title={label} onClose={() => setOpen(false)} />
    </>
  );
}
