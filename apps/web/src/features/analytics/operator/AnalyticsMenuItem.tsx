import { Link as RouterLink } from 'react-router';
import ListItemIcon from '@mui/material/ListItemIcon';
import MenuItem from '@mui/material/MenuItem';
import InsightsOutlinedIcon from '@mui/icons-material/InsightsOutlined';
import { useAnalyticsAccess } from './api';

/** The account menu's link to the product analytics, for operators only (the page itself is refused to others). */
export function AnalyticsMenuItem({ onClose }: { onClose: () => void }) {
  const access = useAnalyticsAccess();
  if (!access.data?.isOperator) return null;
  return (
    <MenuItem component={RouterLink} to="/analytics" onClick={onClose}>
      <ListItemIcon>
        <InsightsOutlinedIcon fontSize="small" />
      </ListItemIcon>
      Product analytics
    </MenuItem>
  );
}
