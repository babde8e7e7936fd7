import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useSWRConfig } from 'swr';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import PersonAddAlt1OutlinedIcon from '@mui/icons-material/PersonAddAlt1Outlined';
import { defaultMemberRole, memberRoles, type MemberRole, type Onboarding } from '@insilico/contracts';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { ApiError } from '../../../lib/apiError';
import { useSignedInUser } from '../../../app/user/userContext';
import { devicesKey, selectedDeviceKey } from '../../../lib/workspaceKeys';
import { completeOnboarding, onboardingKey } from '../api';
import { useStepFlow } from '../stepFlow';
import { inviteeError, labelOf, type Invitee } from '../steps';
import { useSaveStep } from '../useSaveStep';
import { StepActions } from './StepActions';

const step = 5;

function sameTeam(a: readonly Invitee[], b: readonly Invitee[]): boolean {
  return (
    a.length === b.length &&
    a.every((invitee, index) => invitee.email === b[index]?.email && invitee.role === b[index]?.role)
  );
}

/** Step 5: colleagues to invite by e-mail with a role (member by default); Finish creates the workspace. */
export function TeamStep({ onboarding }: { onboarding: Onboarding }) {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const flow = useStepFlow();
  const { mutate } = useSWRConfig();
  const saved = onboarding.state.yourTeam;
  const [team, setTeam] = useState<Invitee[]>(saved);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>(defaultMemberRole);
  const [emailError, setEmailError] = useState<string | null>(null);
  const [finishing, setFinishing] = useState(false);
  const [finishError, setFinishError] = useState<string | null>(null);
  const leave = useLeaveConfirmation(!sameTeam(team, saved) || email.trim() !== '');
  const { save, saving, error } = useSaveStep(step, onboarding, leave.allowNextNavigation);

  function add(): Invitee[] | null {
    const problem = inviteeError(email, team, user.email);
    setEmailError(problem);
    if (problem) return null;
    const next = [...team, { email: email.trim().toLowerCase(), role }];
    setTeam(next);
    setEmail('');
    setRole(defaultMemberRole);
    return next;
  }

  async function finish(event: FormEvent) {
    event.preventDefault();
    // A typed address that was not added yet is part of the answer.
    const list = email.trim() ? add() : team;
    if (!list) return;
    setFinishError(null);
    if (!(await save({ yourTeam: list }, { navigate: false }))) return;
    setFinishing(true);
    try {
      const result = await completeOnboarding();
      await Promise.all([mutate(devicesKey), mutate(selectedDeviceKey), mutate(onboardingKey)]);
      leave.allowNextNavigation();
      void navigate(flow.completePath, { state: { deviceName: result.device.deviceName } });
    } catch (caught) {
      setFinishError(
        caught instanceof ApiError ? caught.message : 'Your workspace could not be created. Please try again.',
      );
      setFinishing(false);
    }
  }

  return (
    <form onSubmit={(event) => void finish(event)} noValidate>
      <Stack spacing={2.5} sx={{ maxWidth: 640 }}>
        <Typography variant="body2" color="text.secondary">
          Invite colleagues to your device workspace. They get an e-mail with a link; you accept them once they have
          signed up. You can also invite people later under Manage team.
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            label="Colleague’s e-mail"
            type="email"
            value={email}
            onChange={(event) => {
              setEmail(event.target.value);
              setEmailError(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                add();
              }
            }}
            error={emailError !== null}
            helperText={emailError}
            sx={{ flex: 1 }}
            slotProps={{ htmlInput: { maxLength: 254 } }}
          />
          <TextField
            select
            label="Role"
            value={role}
            onChange={(event) => setRole(event.target.value as MemberRole)}
            sx={{ minWidth: 140 }}
          >
            {memberRoles.map((option) => (
              <MenuItem key={option} value={option}>
                {labelOf(option)}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="outlined"
            onClick={() => add()}
            startIcon={<PersonAddAlt1OutlinedIcon aria-hidden="true" />}
            sx={{ height: 56, whiteSpace: 'nowrap' }}
          >
            Add colleague
          </Button>
        </Stack>
        <Paper variant="outlined" sx={{ borderRadius: 2 }}>
          {team.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
              No colleagues added yet. You can finish without inviting anyone.
            </Typography>
          ) : (
            <List aria-label="Colleagues to invite" dense>
              {team.map((invitee) => (
                <ListItem
                  key={invitee.email}
                  secondaryAction={
                    <IconButton
                      edge="end"
                      aria-label={`Remove ${invitee.email}`}
                      onClick={() => setTeam((current) => current.filter((other) => other.email !== invitee.email))}
                    >
                      <DeleteOutlineIcon />
                    </IconButton>
                  }
                >
                  <ListItemText primary={invitee.email} secondary={labelOf(invitee.role)} />
                </ListItem>
              ))}
            </List>
          )}
        </Paper>
      </Stack>
      <StepActions
        step={step}
        saving={saving || finishing}
        error={error ?? finishError}
        nextLabel="Finish and create workspace"
      />
      {leave.dialog}
    </form>
  );
}
