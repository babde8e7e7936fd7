import { useId, useState, type MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSWRConfig } from 'swr';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Snackbar from '@mui/material/Snackbar';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import CheckIcon from '@mui/icons-material/Check';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { DeviceSummary } from '@insilico/contracts';
import { initialsOf } from '../../../lib/initials';
import { ApiError } from '../../../lib/apiError';
import { devicesKey, selectDevice, selectedDeviceKey, useDevices, useSelectedDevice } from '../api';
import { labelOf } from '../../../lib/labels';

function DeviceAvatar({ device, size }: { device: DeviceSummary; size: number }) {
  return (
    <Avatar
      variant="rounded"
      src={device.devicePicture ?? undefined}
      alt=""
      sx={{ width: size, height: size, fontSize: size * 0.4, fontWeight: 800, bgcolor: 'secondary.main' }}
    >
      {initialsOf(device.deviceName)}
    </Avatar>
  );
}

/**
 * The workspace switcher of the top bar: the user's workspaces (picture or initials, name, role),
 * the selected one checked; choosing one selects it on the server (it persists per user).
 */
export function WorkspaceSwitcher() {
  const devices = useDevices();
  const selected = useSelectedDevice();
  const { mutate } = useSWRConfig();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [error, setError] = useState<string | null>(null);
  const menuId = useId();
  const open = anchor !== null;
  const close = () => setAnchor(null);
  const current = selected.data?.device ?? null;
  const items = devices.data?.items ?? [];

  async function choose(device: DeviceSummary) {
    close();
    if (device.deviceId === current?.deviceId) return;
    try {
      await selectDevice(device.deviceId);
      await Promise.all([mutate(selectedDeviceKey), mutate(devicesKey)]);
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The workspace could not be switched. Please try again.');
    }
  }

  const label = current ? `Workspace: ${current.deviceName}` : 'Workspace: none';
  return (
    <>
      <Button
        color="inherit"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        endIcon={<ExpandMoreIcon aria-hidden="true" />}
        sx={{ textTransform: 'none', maxWidth: { xs: 96, sm: 240 }, px: 1, color: 'text.primary' }}
      >
        {current && <DeviceAvatar device={current} size={26} />}
        <Typography
          variant="body2"
          noWrap
          sx={{ fontWeight: 700, ml: current ? 1 : 0, display: { xs: current ? 'none' : 'block', sm: 'block' } }}
        >
          {current ? current.deviceName : 'Workspace'}
        </Typography>
      </Button>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{
          paper: {
            variant: 'outlined',
            sx: {
              mt: 1,
              minWidth: 280,
              maxWidth: 360,
              borderRadius: 3,
              boxShadow: '0 12px 32px rgba(27, 37, 51, 0.14)',
            },
          },
        }}
      >
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
          <MenuItem component={RouterLink} to="/devices/setup" onClick={close}>
            <ListItemIcon>
              <AddIcon fontSize="small" />
            </ListItemIcon>
            Set up your first device
          </MenuItem>
        )}
        {items.length > 0 && <Divider />}
        {items.length > 0 && (
          <MenuItem component={RouterLink} to="/add-device" onClick={close}>
            <ListItemIcon>
              <AddIcon fontSize="small" />
            </ListItemIcon>
            Add device
          </MenuItem>
        )}
      </Menu>
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
