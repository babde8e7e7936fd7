import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import PersonOutlineIcon from '@mui/icons-material/PersonOutline';

/**
 * The visible mark of a patient from the user's own imaging data (issue 19): a real person's de-identified images,
 * modelled by support staff — never to be taken for a synthetic virtual patient (SyntheticLabel).
 */
export function OwnImagingLabel({ size = 'small' }: { size?: 'small' | 'medium' }) {
  return (
    <Tooltip title="From your own de-identified imaging data, modelled by our staff; not a synthetic patient.">
      <Chip
        icon={<PersonOutlineIcon aria-hidden="true" />}
        label="Your imaging data"
        size={size}
        color="primary"
        variant="outlined"
      />
    </Tooltip>
  );
}
