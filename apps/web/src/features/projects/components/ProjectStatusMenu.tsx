import { useId, useState } from 'react';
import IconButton from '@mui/material/IconButton';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import { movesFrom, reasonRequiredMessage, type Project, type ProjectStatusMove } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ReasonField } from '../../../components/ReasonField';
import { ApiError } from '../../../lib/apiError';
import { changeProjectStatus } from '../api';

/**
 * What each move says before it happens. Every move asks for a reason for change (issue 20: a project's status
 * changes what its evidence means; the reason is kept in the audit trail).
 */
const confirmations: Record<ProjectStatusMove['to'], (name: string) => string> = {
  completed: (name) => `Mark “${name}” as completed? It moves to the completed projects; you can reactivate it later.`,
  abandoned: (name) =>
    `Abandon “${name}”? It moves to the abandoned projects and its team is told; you can reactivate it later.`,
  active: (name) => `Reactivate “${name}”? It moves back to the active projects and its team is told.`,
};

/**
 * The card menu of spec §2 (Complete project, Abandon project, Reactivate project): only the moves the project's
 * status allows, only for people who may manage the project; each asks first, with a reason for change.
 */
export function ProjectStatusMenu({ deviceId, project }: { deviceId: string; project: Project }) {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [asking, setAsking] = useState<ProjectStatusMove | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  // A card is drawn many times on the overview: the menu, dialog and message mount on first use only (then stay,
  // for their closing transitions and focus return).
  const [used, setUsed] = useState(false);
  const moves = movesFrom(project.status);
  if (!project.canManage || moves.length === 0) return null;

  async function run(move: ProjectStatusMove) {
    if (!reason.trim()) {
      setError(reasonRequiredMessage);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await changeProjectStatus(deviceId, project.id, move.to, reason);
      setAsking(null);
    } catch (cause) {
      setError(cause instanceof ApiError ? cause.message : 'The status could not be changed.');
    } finally {
      setBusy(false);
    }
  }

  function choose(move: ProjectStatusMove) {
    setAnchor(null);
    setError(null);
    setReason('');
    setAsking(move);
  }

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
            message={
              asking ? (
                <>
                  {confirmations[asking.to](project.name)}
                  <ReasonField value={reason} onChange={setReason} />
                </>
              ) : (
                ''
              )
            }
            confirmLabel={asking?.action ?? ''}
            busy={busy}
            error={error}
            onConfirm={() => asking && void run(asking)}
            onCancel={() => setAsking(null)}
          />
        </>
      )}
    </>
  );
}
