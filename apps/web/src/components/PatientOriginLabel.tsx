import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import PersonOutlineIcon from '@mui/icons-material/PersonOutline';
import ScienceOutlinedIcon from '@mui/icons-material/ScienceOutlined';

/**
 * Where a patient comes from: a synthetic virtual patient (generated from published statistics, not a real person)
 * or a patient from the user's own imaging data (issue 19: a real person's de-identified images, modelled by support
 * staff). Every patient shown carries its mark, so that the one is never taken for the other.
 */
export type PatientOrigin = 'synthetic' | 'imaging';

const marks = {
  synthetic: {
    label: 'Synthetic',
    title: 'Generated from published reference statistics; not a real person’s data.',
    icon: <ScienceOutlinedIcon aria-hidden="true" />,
    color: 'secondary',
  },
  imaging: {
    label: 'Your imaging data',
    title: 'From your own de-identified imaging data, modelled by our staff; not a synthetic patient.',
    icon: <PersonOutlineIcon aria-hidden="true" />,
    color: 'primary',
  },
} as const;

/** The visible mark of a patient's origin. */
export function PatientOriginLabel({ origin, size = 'small' }: { origin: PatientOrigin; size?: 'small' | 'medium' }) {
  const mark = marks[origin];
  return (
    <Tooltip title={mark.title}>
      <Chip icon={mark.icon} label={mark.label} size={size} color={mark.color} variant="outlined" />
    </Tooltip>
  );
}
