import { useId, useState, type MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import Avatar from '@mui/material/Avatar';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AccountCircleOutlinedIcon from '@mui/icons-material/AccountCircleOutlined';
import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import CardMembershipOutlinedIcon from '@mui/icons-material/CardMembershipOutlined';
import DevicesOtherOutlinedIcon from '@mui/icons-material/DevicesOtherOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import LogoutIcon from '@mui/icons-material/Logout';
import { initialsOf } from '../../lib/initials';
import { useSignedInUser } from '../user/userContext';
import { logoutUrl, settingsLinks } from './navigation';

const icons: Record<(typeof settingsLinks)[number]['to'], typeof HelpOutlineIcon> = {
  '/my-account': AccountCircleOutlinedIcon,
  '/manage-device': DevicesOtherOutlinedIcon,
  '/manage-team': GroupOutlinedIcon,
  '/company-info': BusinessOutlinedIcon,
  '/subscriptions': CardMembershipOutlinedIcon,
  '/help': HelpOutlineIcon,
};

/** The avatar button with the settings pages and Sign out. */
export function AccountMenu() {
  const user = useSignedInUser();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = anchor !== null;
  const menuId = useId();
  const close = () => setAnchor(null);

  return (
    <>
      <Tooltip title="Account and settings">
        <IconButton
          aria-label="Account and settings"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
          sx={{ p: 0.5 }}
        >
          <Avatar
            src={user.pictureUrl ?? undefined}
            alt=""
            sx={{ width: 34, height: 34, fontSize: 14, fontWeight: 800, bgcolor: 'primary.main' }}
          >
            {initialsOf(user.fullName)}
          </Avatar>
        </IconButton>
      </Tooltip>
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
            sx: { mt: 1, minWidth: 240, borderRadius: 3, boxShadow: '0 12px 32px rgba(27, 37, 51, 0.14)' },
          },
        }}
      >
        {/* A subheader: skipped by the menu's keyboard focus. */}
        <ListSubheader component="div" sx={{ px: 2, pt: 0.5, pb: 1.5, lineHeight: 1.5, bgcolor: 'transparent' }}>
          <Typography variant="subtitle2" color="text.primary" noWrap>
            {user.fullName}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {user.email}
          </Typography>
        </ListSubheader>
        <Divider />
        {settingsLinks.map((link) => {
          const Icon = icons[link.to];
          return (
            <MenuItem key={link.to} component={RouterLink} to={link.to} onClick={close}>
              <ListItemIcon>
                <Icon fontSize="small" />
              </ListItemIcon>
              {link.label}
            </MenuItem>
          );
        })}
        <Divider />
        {/* A full-page navigation: the server ends the session and the issuer's session. */}
        <MenuItem component="a" href={logoutUrl}>
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          Sign out
        </MenuItem>
      </Menu>
    </>
  );
}
