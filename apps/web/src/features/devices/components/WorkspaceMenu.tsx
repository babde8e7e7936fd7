import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSWRConfig } from 'swr';
import Divider from '@mui/material/Divider';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import AddIcon from '@mui/icons-material/Add';
import CheckIcon from '@mui/icons-material/Check';
import type { DeviceSummary } from '@insilico/contracts';
import { TopBarMenu } from '../../../components/TopBarMenu';
import { ApiError } from '../../../lib/apiError';
import { labelOf } from '../../../lib/labels';
import { devicesKey, selectDevice, selectedDeviceKey, useDevices, useSelectedDevice } from '../api';
import { DeviceAvatar } from './DeviceAvatar';

export interface WorkspaceMenuProps {
  id: string;
  anchor: HTMLElement | null;
  onClose: () => void;
}

/**
 * The workspace switcher's menu (loaded on first use): the user's workspaces (picture or initials, name, role), the
 * selected one checked; choosing one selects it on the server (it persists per user).
 */
export function WorkspaceMenu({ id, anchor, onClose }: WorkspaceMenuProps) {
  const devices = useDevices();
  const selected = useSelectedDevice();
  const { mutate } = useSWRConfig();
  const [error, setError] = useState<string | null>(null);
  const current = selected.data?.device ?? null;
  const items = devices.data?.items ?? [];

  async function choose(device: DeviceSummary) {
    onClose();
    if (device.deviceId === current?.deviceId) return;
    try {
      await selectDevice(device.deviceId);
      await Promise.all([mutate(selectedDeviceKey), mutate(devicesKey)]);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The workspace could not be switched. Please try again.');
    }
  }

  return (
    <>
      <TopBarMenu id={id} anchor={anchor} onClose={onClose} minWidth={280} maxWidth={360}>
        <ListSubheader component="div" sx={{ lineHeight: 2.5, bgcolor: 'transparent' }}>
          Your device workspaces
        </ListSubheader>
        {devices.error && !devices.data && (
          <MenuItem disabled>
            <ListItemText primary="Your workspaces could not be loaded." secondary={devices.error.message} />
          </MenuItem>
        )}
        {!devices.data && !devices.error && (
          <MenuItem disabled>
            <ListItemText primary="Loading…" />
          </MenuItem>
        )}
        {items.map((device) => {
          const isCurrent = device.deviceId === current?.deviceId;
          const pending = device.userStatus !== 'ok';
          return (
            <MenuItem
              key={device.deviceId}
              selected={isCurrent}
              aria-current={isCurrent ? 'true' : undefined}
              disabled={pending}
              onClick={() => void choose(device)}
            >
              <ListItemAvatar sx={{ minWidth: 48 }}>
                <DeviceAvatar device={device} size={32} />
              </ListItemAvatar>
              <ListItemText
                primary={device.deviceName}
                secondary={pending ? 'Waiting for an admin’s approval' : labelOf(device.role)}
                slotProps={{ primary: { noWrap: true, sx: { fontWeight: 700 } } }}
              />
              {isCurrent && <CheckIcon fontSize="small" color="primary" sx={{ ml: 1 }} aria-hidden="true" />}
            </MenuItem>
          );
        })}
        {devices.data && items.length === 0 && (
          <MenuItem component={RouterLink} to="/devices/setup" onClick={onClose}>
            <ListItemIcon>
              <AddIcon fontSize="small" />
            </ListItemIcon>
            Set up your first device
          </MenuItem>
        )}
        {items.length > 0 && <Divider />}
        {items.length > 0 && (
          <MenuItem component={RouterLink} to="/add-device" onClick={onClose}>
            <ListItemIcon>
              <AddIcon fontSize="small" />
            </ListItemIcon>
            Add device
          </MenuItem>
        )}
      </TopBarMenu>
      <Snackbar
        open={error !== null}
        autoHideDuration={6000}
        onClose={() => setError(null)}
        message={error}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      />
    </>
  );
}
