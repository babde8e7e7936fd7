import Checkbox from '@mui/material/Checkbox';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import type { CohortStatus } from '@insilico/contracts';
import { CohortStatusChip } from '../../cohorts';

export interface CohortRow {
  id: string;
  name: string;
  size: number;
  status: CohortStatus;
  /** A second line (criteria summary, who ordered it). */
  detail?: string;
}

interface CohortCheckListProps {
  label: string;
  cohorts: readonly CohortRow[];
  checked: readonly string[];
  onToggle: (cohortId: string, on: boolean) => void;
}

/** Cohorts to tick for the project; a failed order cannot be chosen (it has no patients). */
export function CohortCheckList({ label, cohorts, checked, onToggle }: CohortCheckListProps) {
  return (
    <List aria-label={label} dense sx={{ maxWidth: 880 }}>
      {cohorts.map((cohort) => {
        const on = checked.includes(cohort.id);
        const failed = cohort.status === 'failed';
        return (
          <ListItem key={cohort.id} disablePadding secondaryAction={<CohortStatusChip status={cohort.status} />}>
            <ListItemButton disabled={failed} onClick={() => onToggle(cohort.id, !on)} sx={{ borderRadius: 2 }}>
              <ListItemIcon>
                <Checkbox
                  edge="start"
                  checked={on}
                  tabIndex={-1}
                  disableRipple
                  slotProps={{ input: { 'aria-label': cohort.name } }}
                />
              </ListItemIcon>
              <ListItemText
                primary={`${cohort.name} · ${cohort.size} patients`}
                secondary={failed ? 'This order failed and cannot be used.' : cohort.detail}
              />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
