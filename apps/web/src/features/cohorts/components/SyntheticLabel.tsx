import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';

/** The visible mark of synthetic virtual patients (generated from published statistics, not real people). */
export function SyntheticLabel({ size = 'small' }: { size?: 'small' | 'medium' }) {
  return (
    <Tooltip title="Generated from published reference statistics; not a real person’s data.">
      <Chip
        icon={<ScienceOutlinedIcon aria-hidden="true" />}
        label="Synthetic"
        size={size}
        color="secondary"
        variant="outlined"
      />
    </Tooltip>
  );
}
