import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { renameFailedMessage } from '@insilico/contracts';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography, { type TypographyProps } from '@mui/material/Typography';
import CheckIcon from '@mui/icons-material/Check';
import CloseIcon from '@mui/icons-material/Close';
import EditOutlinedIcon from '@mui/icons-material/EditOutlined';

/** What a save answered: saved, or refused because another item has the name (the field shows `duplicateMessage`). */
export type RenameOutcome = 'saved' | 'duplicate';

export interface RenameFieldProps {
  /** The saved name. */
  value: string;
  /** What is renamed, for labels: "room" gives "Rename room", "Room name". */
  noun: string;
  /** Saves a new name (trimmed, changed); throws for any other failure, which shows spec §8's rename error. */
  onRename: (name: string) => Promise<RenameOutcome>;
  /** The names of the other items (compared regardless of letter case): typing one of them shows the error. */
  otherNames?: readonly string[];
  duplicateMessage: string;
  maxLength?: number;
  /** False: the name is shown without the rename icon. */
  editable?: boolean;
  variant?: TypographyProps['variant'];
}

type Mode = 'idle' | 'editing' | 'saving';

/**
 * How long the reason of a rename that did not happen (name taken, save failed) stays under the restored name: long
 * enough to read, as a snackbar's; it stayed for good before (issue 14).
 */
export const renameErrorShownMs = 6000;

/**
 * The rename-in-place text field (spec §2 widget 3, §4 "Rename field", §5 "Rename"): idle shows the name and the
 * rename icon; the icon starts editing; Enter or the check icon confirms; the cancel icon or Escape restores the old
 * text. A name equal to another item's shows an error while typing, and confirming it cancels the rename. A failed
 * save shows `renameFailedMessage` and keeps the old name. Either reason shows for `renameErrorShownMs`.
 */
export function RenameField({
  value,
  noun,
  onRename,
  otherNames = [],
  duplicateMessage,
  maxLength = 100,
  editable = true,
  variant = 'h6',
}: RenameFieldProps) {
  const [mode, setMode] = useState<Mode>('idle');
  const [draft, setDraft] = useState(value);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  useEffect(() => {
    if (mode === 'editing') input.current?.select();
  }, [mode]);
  useEffect(() => {
    if (mode !== 'idle' || error === null) return;
    const timer = setTimeout(() => setError(null), renameErrorShownMs);
    return () => clearTimeout(timer);
  }, [mode, error]);

  const trimmed = draft.trim();
  const taken = otherNames.some((name) => name.toLowerCase() === trimmed.toLowerCase());
  const typingError =
    mode === 'editing'
      ? taken
        ? duplicateMessage
        : trimmed === ''
          ? `Please give the ${noun} a name.`
          : trimmed.length > maxLength
            ? `A ${noun} name can have at most ${maxLength} characters.`
            : null
      : null;
  const shownError = typingError ?? error;

  const start = () => {
    setDraft(value);
    setError(null);
    setMode('editing');
  };
  const cancel = (reason: string | null = null) => {
    setDraft(value);
    setError(reason);
    setMode('idle');
  };
  const confirm = async () => {
    if (mode !== 'editing') return;
    // Spec §5: a name equal to another existing name cancels the rename on confirm.
    if (taken) return cancel(duplicateMessage);
    if (typingError) return;
    if (trimmed === value) return cancel();
    setMode('saving');
    try {
      const outcome = await onRename(trimmed);
      if (!mounted.current) return;
      if (outcome === 'duplicate') cancel(duplicateMessage);
      else {
        setError(null);
        setMode('idle');
      }
    } catch {
      if (mounted.current) cancel(renameFailedMessage);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void confirm();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      cancel();
    }
  };

  return (
    <Stack spacing={0.25} sx={{ minWidth: 0 }}>
      {mode === 'idle' ? (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Typography variant={variant} component="span" noWrap title={value} sx={{ minWidth: 0 }}>
            {value}
          </Typography>
          {editable && (
            <Tooltip title={`Rename ${noun}`}>
              <IconButton size="small" aria-label={`Rename ${noun} ${value}`} onClick={start}>
                <EditOutlinedIcon fontSize="small" />
              </IconButton>
            </Tooltip>
          )}
        </Stack>
      ) : (
        <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center' }}>
          <InputBase
            inputRef={input}
            autoFocus
            value={draft}
            disabled={mode === 'saving'}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
            inputProps={{
              'aria-label': `${noun[0]?.toUpperCase() ?? ''}${noun.slice(1)} name`,
              'aria-invalid': shownError !== null,
              'aria-describedby': shownError ? errorId : undefined,
              maxLength: maxLength + 20,
            }}
            sx={{
              flex: 1,
              minWidth: 120,
              px: 1,
              borderRadius: 1,
              border: 1,
              borderColor: shownError ? 'error.main' : 'primary.main',
              typography: variant,
            }}
          />
          {mode === 'saving' ? (
            <CircularProgress size={20} aria-label="Saving the name" />
          ) : (
            <>
              <IconButton size="small" aria-label="Confirm the name" onClick={() => void confirm()}>
                <CheckIcon fontSize="small" />
              </IconButton>
              <IconButton size="small" aria-label="Cancel renaming" onClick={() => cancel()}>
                <CloseIcon fontSize="small" />
              </IconButton>
            </>
          )}
        </Stack>
      )}
      {shownError && (
        <Typography id={errorId} variant="caption" color="error" role="alert">
          {shownError}
        </Typography>
      )}
    </Stack>
  );
}
