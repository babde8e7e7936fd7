import { Link as RouterLink } from 'react-router';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import AccountCircleOutlinedIcon from '@mui/icons-material/AccountCircleOutlined';
import BusinessOutlinedIcon from '@mui/icons-material/BusinessOutlined';
import CardMembershipOutlinedIcon from '@mui/icons-material/CardMembershipOutlined';
import DevicesOtherOutlinedIcon from '@mui/icons-material/DevicesOtherOutlined';
import GroupOutlinedIcon from '@mui/icons-material/GroupOutlined';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import LogoutIcon from '@mui/icons-material/Logout';
import { TopBarMenu } from '../../components/TopBarMenu';
import { AnalyticsMenuItem } from '../../features/analytics';
import { useSignedInUser } from '../user/userContext';
import { settingsLinks } from './navigation';
import { signOut } from './signOut';

const icons: Record<(typeof settingsLinks)[number]['to'], typeof HelpOutlineIcon> = {
  '/my-account': AccountCircleOutlinedIcon,
  '/manage-device': DevicesOtherOutlinedIcon,
  '/manage-team': GroupOutlinedIcon,
  '/company-info': BusinessOutlinedIcon,
  '/subscriptions': CardMembershipOutlinedIcon,
  '/help': HelpOutlineIcon,
};

export interface AccountMenuPanelProps {
  id: string;
  anchor: HTMLElement | null;
  onClose: () => void;
}

/** The account menu (loaded on first use): who is signed in, the settings pages and Sign out. */
export function AccountMenuPanel({ id, anchor, onClose }: AccountMenuPanelProps) {
  const user = useSignedInUser();
  return (
    <TopBarMenu id={id} anchor={anchor} onClose={onClose} minWidth={240}>
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
          <MenuItem key={link.to} component={RouterLink} to={link.to} onClick={onClose}>
            <ListItemIcon>
              <Icon fontSize="small" />
            </ListItemIcon>
            {link.label}
          </MenuItem>
        );
      })}
      <AnalyticsMenuItem onClose={onClose} />
      <Divider />
      {/* A full-page form POST: the server ends the session and the issuer's session. */}
      <MenuItem onClick={signOut}>
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        Sign out
      </MenuItem>
    </TopBarMenu>
  );
}
