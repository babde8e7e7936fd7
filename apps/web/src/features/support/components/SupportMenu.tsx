import { useId, useState, type MouseEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutline';
import HelpOutlineIcon from '@mui/icons-material/HelpOutline';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import { useSupportContext } from '../api';
import { useAskSupport } from '../useAskSupport';
import { AskSupportDrawer } from './AskSupportDrawer';

/** The top bar's help button: ask support (the drawer), the help page, and for support staff the inbox. */
export function SupportMenu() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const drawer = useAskSupport();
  const context = useSupportContext();
  const close = () => setAnchor(null);
  const open = anchor !== null;

  return (
    <>
      <Tooltip title="Help and support">
        <IconButton
          aria-label="Help and support"
          aria-haspopup="menu"
          aria-expanded={open}
          aria-controls={open ? menuId : undefined}
          onClick={(event: MouseEvent<HTMLElement>) => setAnchor(event.currentTarget)}
        >
          <HelpOutlineIcon />
        </IconButton>
      </Tooltip>
      <Menu
        id={menuId}
        anchorEl={anchor}
        open={open}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { variant: 'outlined', sx: { mt: 1, minWidth: 220, borderRadius: 3 } } }}
      >
        <MenuItem
          onClick={() => {
            close();
            drawer.open();
          }}
        >
          <ListItemIcon>
            <ChatBubbleOutlineIcon fontSize="small" />
          </ListItemIcon>
          Ask support
        </MenuItem>
        <MenuItem component={RouterLink} to="/help" onClick={close}>
          <ListItemIcon>
            <MenuBookOutlinedIcon fontSize="small" />
          </ListItemIcon>
          Help
        </MenuItem>
        {context.data?.isSupportStaff && (
          <MenuItem component={RouterLink} to="/support-inbox" onClick={close}>
            <ListItemIcon>
              <InboxOutlinedIcon fontSize="small" />
            </ListItemIcon>
            Support inbox
          </MenuItem>
        )}
      </Menu>
      <AskSupportDrawer open={drawer.isOpen} onClose={drawer.close} />
    </>
  );
}
