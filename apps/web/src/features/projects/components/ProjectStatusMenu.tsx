import { useId, useState } from 'react';
import Alert from '@mui/material/Alert';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { movesFrom, type Project, type ProjectStatusMove } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ApiError } from '../../../lib/apiError';
import { changeProjectStatus } from '../api';

/** What each confirmed move says before it happens (Reactivate loses nothing and is not asked). */
const confirmations: Partial<Record<ProjectStatusMove['to'], (name: string) => string>> = {
  completed: (name) => `Mark “${name}” as completed? It moves to the completed projects; you can reactivate it later.`,
  abandoned: (name) =>
    `Abandon “${name}”? It moves to the abandoned projects and its team is told; you can reactivate it later.`,
};

/**
 * The card menu of spec §2 (Complete project, Abandon project, Reactivate project): only the moves the project's
 * status allows, only for people who may manage the project; Complete and Abandon ask first.
 */
export function ProjectStatusMenu({ deviceId, project }: { deviceId: string; project: Project }) {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [asking, setAsking] = useState<ProjectStatusMove | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // A card is drawn many times on the overview: the menu, dialog and message mount on first use only (then stay,
  // for their closing transitions and focus return).
  const [used, setUsed] = useState(false);
  const moves = movesFrom(project.status);
  if (!project.canManage || moves.length === 0) return null;

  async function run(move: ProjectStatusMove) {
    setBusy(true);
    setError(null);
    try {
      await changeProjectStatus(deviceId, project.id, move.to);
      setAsking(null);
    } catch (cause) {
      const message = cause instanceof ApiError ? cause.message : 'The status could not be changed.';
      if (asking) setError(message);
      else setFailure(message);
    } finally {
      setBusy(false);
    }
  }

  function choose(move: ProjectStatusMove) {
    setAnchor(null);
    if (confirmations[move.to]) {
      setError(null);
      setAsking(move);
    } else void run(move);
  }

  const confirmation = asking ? confirmations[asking.to] : undefined;
  return (
    <>
      <IconButton
        aria-label={`Actions for ${project.name}`}
        aria-haspopup="menu"
        aria-controls={anchor ? menuId : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        disabled={busy}
        onClick={(event) => {
          event.stopPropagation();
          setUsed(true);
          setAnchor(event.currentTarget);
        }}
        size="small"
      >
        <MoreVertIcon fontSize="small" />
      </IconButton>
      {used && (
        <>
          <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
            {moves.map((move) => (
              <MenuItem key={move.to} onClick={() => choose(move)}>
                {move.action}
              </MenuItem>
            ))}
          </Menu>
          <ConfirmDialog
            open={asking !== null}
            title={asking ? `${asking.action}?` : ''}
            message={confirmation ? confirmation(project.name) : ''}
            confirmLabel={asking?.action ?? ''}
            busy={busy}
            error={error}
            onConfirm={() => asking && void run(asking)}
            onCancel={() => setAsking(null)}
          />
          <Snackbar open={failure !== null} autoHideDuration={8000} onClose={() => setFailure(null)}>
            <Alert severity="error" onClose={() => setFailure(null)} sx={{ width: '100%' }}>
              {failure}
            </Alert>
          </Snackbar>
        </>
      )}
    </>
  );
}
