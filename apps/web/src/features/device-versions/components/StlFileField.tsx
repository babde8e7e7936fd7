import { useId, useRef, useState, type DragEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import CloseIcon from '@mui/icons-material/Close';
import PauseIcon from '@mui/icons-material/Pause';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import { uploadFailedMessage } from '@insilico/contracts';
import { formatBytes } from '../format';
import type { StlUploadItem } from '../hooks/useStlUploads';

interface StlFileFieldProps {
  items: readonly StlUploadItem[];
  onAdd: (files: File[]) => void;
  onPause: (key: string) => void;
  onResume: (key: string) => void;
  onRetry: (key: string) => void;
  onRemove: (key: string) => void;
  disabled?: boolean;
  /** Shown under the drop zone (e.g. "Add at least one .stl file."). */
  error?: string | null;
}

function ItemStatus({ item, onRetry }: { item: StlUploadItem; onRetry: () => void }) {
  if (item.status === 'refused')
    return (
      <Typography variant="body2" color="error">
        {item.problem}
      </Typography>
    );
  if (item.status === 'failed')
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="body2" color="error" role="alert">
          {uploadFailedMessage}
        </Typography>
        <Button size="small" onClick={onRetry}>
          Try again
        </Button>
      </Stack>
    );
  if (item.status === 'done')
    return (
      <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
        <CheckCircleIcon fontSize="small" color="success" aria-hidden="true" />
        <Typography variant="body2" color="text.secondary">
          Uploaded
        </Typography>
      </Stack>
    );
  const percent = Math.round(item.progress * 100);
  return (
    <Stack spacing={0.5} sx={{ width: '100%' }}>
      <LinearProgress variant="determinate" value={percent} aria-label={`Upload of ${item.file.name}`} />
      <Typography variant="body2" color="text.secondary">
        {item.status === 'paused' ? `Paused at ${percent} %` : `Uploading… ${percent} %`}
      </Typography>
    </Stack>
  );
}

/** One or more .stl files by picker or drag and drop, each with its upload's progress and controls. */
export function StlFileField({
  items,
  onAdd,
  onPause,
  onResume,
  onRetry,
  onRemove,
  disabled,
  error,
}: StlFileFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();

  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) onAdd([...event.dataTransfer.files]);
  };

  return (
    <Stack spacing={1.5}>
      <Box
        onDragOver={(event) => {
          event.preventDefault();
          if (!disabled) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
        data-testid="stl-drop-zone"
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: error ? 'error.main' : over ? 'primary.main' : 'divider',
          bgcolor: over ? 'action.hover' : 'transparent',
          borderRadius: 2,
          p: 3,
          textAlign: 'center',
        }}
      >
        <UploadFileIcon color="action" aria-hidden="true" />
        <Typography id={hintId} sx={{ mb: 1 }}>
          Drag .stl files here (binary or ASCII, up to 1 GB each), or
        </Typography>
        <Button variant="outlined" onClick={() => input.current?.click()} disabled={disabled} aria-describedby={hintId}>
          Choose .stl files
        </Button>
        <input
          ref={input}
          type="file"
          accept=".stl,model/stl"
          multiple
          hidden
          aria-label="3D model files (.stl)"
          onChange={(event) => {
            onAdd([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </Box>
      {error && (
        <Typography variant="body2" color="error">
          {error}
        </Typography>
      )}
      {items.length > 0 && (
        <List dense disablePadding aria-label="Files of the device version">
          {items.map((item) => (
            <ListItem
              key={item.key}
              divider
              secondaryAction={
                <Stack direction="row">
                  {item.status === 'uploading' && (
                    <Tooltip title="Pause">
                      <IconButton aria-label={`Pause ${item.file.name}`} onClick={() => onPause(item.key)}>
                        <PauseIcon />
                      </IconButton>
                    </Tooltip>
                  )}
                  {item.status === 'paused' && (
                    <Tooltip title="Resume">
                      <IconButton aria-label={`Resume ${item.file.name}`} onClick={() => onResume(item.key)}>
                        <PlayArrowIcon />
                      </IconButton>
                    </Tooltip>
                  )}
                  <Tooltip title="Remove">
                    <IconButton
                      aria-label={`Remove ${item.file.name}`}
                      onClick={() => onRemove(item.key)}
                      disabled={disabled}
                    >
                      <CloseIcon />
                    </IconButton>
                  </Tooltip>
                </Stack>
              }
              sx={{ pr: 12 }}
            >
              <Stack spacing={0.5} sx={{ width: '100%' }}>
                <Typography sx={{ wordBreak: 'break-all' }}>
                  {item.file.name}{' '}
                  <Typography component="span" variant="body2" color="text.secondary">
                    ({formatBytes(item.file.size)})
                  </Typography>
                </Typography>
                <ItemStatus item={item} onRetry={() => onRetry(item.key)} />
              </Stack>
            </ListItem>
          ))}
        </List>
      )}
    </Stack>
  );
}
