import { useState } from 'react';
import Button from '@mui/material/Button';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import type { DeviceVersion } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { deleteDeviceVersion } from '../api';

/**
 * Delete a version after a confirmation (docs/decisions/device-versions.md "Deleting"): the server refuses while it
 * is processing or placed in rooms, and the dialog shows why.
 */
export function DeleteVersionButton({
  deviceId,
  version,
  onDeleted,
}: {
  deviceId: string;
  version: Pick<DeviceVersion, 'id' | 'name' | 'status' | 'projects'>;
  onDeleted?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await deleteDeviceVersion(deviceId, version.id);
      setOpen(false);
      onDeleted?.();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'The device version could not be deleted.');
    } finally {
      setBusy(false);
    }
  }

  const projects = version.projects.map((project) => project.name).join(', ');
  return (
    <>
      <Button
        size="small"
        color="error"
        startIcon={<DeleteOutlineIcon />}
        onClick={() => {
          setError(null);
          setOpen(true);
        }}
        aria-label={`Delete device version ${version.name}`}
      >
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        title={`Delete device version ${version.name}?`}
        message={
          <>
            Its .stl files and previews are removed for good.
            {projects ? ` It is taken off the projects ${projects}.` : ''} This cannot be undone.
          </>
        }
        confirmLabel="Delete"
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
