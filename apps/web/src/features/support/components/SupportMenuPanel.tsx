import { Link as RouterLink } from 'react-router';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import ChatBubbleOutlineIcon from '@mui/icons-material/ChatBubbleOutline';
import InboxOutlinedIcon from '@mui/icons-material/InboxOutlined';
import MenuBookOutlinedIcon from '@mui/icons-material/MenuBookOutlined';
import { TopBarMenu } from '../../../components/TopBarMenu';
import { useSupportContext } from '../api';

export interface SupportMenuPanelProps {
  id: string;
  anchor: HTMLElement | null;
  onClose: () => void;
  onAskSupport: () => void;
}

/** The help button's menu (loaded on first use): ask support, the help page, and for support staff the inbox. */
export function SupportMenuPanel({ id, anchor, onClose, onAskSupport }: SupportMenuPanelProps) {
  const context = useSupportContext();
  return (
    <TopBarMenu id={id} anchor={anchor} onClose={onClose} minWidth={220}>
      <MenuItem
        onClick={() => {
          onClose();
          onAskSupport();
        }}
      >
        <ListItemIcon>
          <ChatBubbleOutlineIcon fontSize="small" />
        </ListItemIcon>
        Ask support
      </MenuItem>
      <MenuItem component={RouterLink} to="/help" onClick={onClose}>
        <ListItemIcon>
          <MenuBookOutlinedIcon fontSize="small" />
        </ListItemIcon>
        Help
      </MenuItem>
      {context.data?.isSupportStaff && (
        <MenuItem component={RouterLink} to="/support-inbox" onClick={onClose}>
          <ListItemIcon>
            <InboxOutlinedIcon fontSize="small" />
          </ListItemIcon>
          Support inbox
        </MenuItem>
      )}
    </TopBarMenu>
  );
}
