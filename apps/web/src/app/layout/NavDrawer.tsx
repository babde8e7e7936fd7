import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { BrandMark } from '../../components/BrandMark';
import { isCurrentSection, mainSections } from './navigation';

export interface NavDrawerProps {
  open: boolean;
  pathname: string;
  onClose: () => void;
}

/** The main sections as a drawer, below 960 px (loaded on first use). */
export function NavDrawer({ open, pathname, onClose }: NavDrawerProps) {
  return (
    <Drawer open={open} onClose={onClose} slotProps={{ paper: { sx: { width: 280 } } }}>
      <Box sx={{ p: 2 }}>
        <BrandMark />
      </Box>
      <Divider />
      <List component="nav" aria-label="Main">
        {mainSections.map((section) => {
          const current = isCurrentSection(section, pathname);
          return (
            <ListItemButton
              key={section.to}
              component={RouterLink}
              to={section.to}
              selected={current}
              aria-current={current ? 'page' : undefined}
              onClick={onClose}
            >
              <ListItemText primary={section.label} slotProps={{ primary: { sx: { fontWeight: 700 } } }} />
            </ListItemButton>
          );
        })}
      </List>
    </Drawer>
  );
}
