import type { FormEvent } from 'react';
import { useSWRConfig } from 'swr';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import LockResetOutlinedIcon from '@mui/icons-material/LockResetOutlined';
import LogoutIcon from '@mui/icons-material/Logout';
import { fullNameMaxLength, jobTitleMaxLength, type Profile } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { PictureUpload } from '../../../components/PictureUpload';
import { formatDate } from '../../../lib/formatDate';
import { initialsOf } from '../../../lib/initials';
import { signOut } from '../../../app/layout/signOut';
import { userProfileKey } from '../../../app/user/fetchUser';
import { useSignedInUser } from '../../../app/user/userContext';
import { isPeopleKey } from '../../../lib/workspaceKeys';
import { profileKey, removeProfilePicture, saveProfile, uploadProfilePicture, useProfile } from '../api';
import { checkProfile, profileFormOf } from '../forms';
import { useSettingsForm } from '../useSettingsForm';
import { FormFooter } from './FormFooter';
import { LoadFailure, Loading } from './LoadState';
import { SettingsSection } from './SettingsSection';
import { AnalyticsConsentSetting } from '../../analytics';

/** The profile form: picture (saved as soon as chosen), full name and job title (Save), e-mail read-only. */
function AccountEditor({ profile }: { profile: Profile }) {
  const user = useSignedInUser();
  const { mutate } = useSWRConfig();
  const state = useSettingsForm(() => profileFormOf(profile));
  const { form, errors } = state;

  // The shell's avatar reads /api/auth/me; teams, comments and "created by" columns show the name and picture too.
  const refresh = () => Promise.all([mutate(profileKey), mutate(userProfileKey), mutate(isPeopleKey)]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkProfile(form);
    if (!checked.ok) {
      state.setErrors(checked.errors);
      return;
    }
    void state.save(
      async () => {
        const updated = await saveProfile(checked.value);
        await refresh();
        return profileFormOf(updated);
      },
      'Your profile is saved.',
      'Your profile could not be saved. Please try again.',
    );
  }

  return (
    <Stack spacing={3}>
      <SettingsSection title="Profile picture">
        <PictureUpload
          label="Profile picture"
          pictureUrl={profile.pictureUrl}
          placeholder={initialsOf(form.fullName || profile.fullName)}
          onUpload={async (file) => {
            await uploadProfilePicture(file);
            await refresh();
            state.setNotice('Your profile picture is saved.');
          }}
          onRemove={async () => {
            await removeProfilePicture();
            await refresh();
            state.setNotice('Your profile picture is removed.');
          }}
        />
      </SettingsSection>

      <SettingsSection title="Profile">
        <form onSubmit={submit} noValidate>
          <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
            <TextField
              label="Full name"
              required
              value={form.fullName}
              onChange={(event) => state.set({ fullName: event.target.value })}
              error={Boolean(errors.fullName)}
              helperText={errors.fullName}
              autoComplete="name"
              slotProps={{ htmlInput: { maxLength: fullNameMaxLength } }}
            />
            <TextField
              label="Job title"
              value={form.jobTitle}
              onChange={(event) => state.set({ jobTitle: event.target.value })}
              error={Boolean(errors.jobTitle)}
              helperText={errors.jobTitle}
              autoComplete="organization-title"
              slotProps={{ htmlInput: { maxLength: jobTitleMaxLength } }}
            />
            <TextField
              label="E-mail"
              value={profile.email}
              helperText="Your e-mail comes from your sign-in account and cannot be changed here."
              slotProps={{ input: { readOnly: true } }}
            />
            <Typography variant="body2" color="text.secondary">
              Member since {formatDate(user.createdAt)}
            </Typography>
            <FormFooter state={state} />
          </Stack>
        </form>
      </SettingsSection>

      <SettingsSection title="Password and sign-out">
        <Stack spacing={2}>
          {user.passwordChangeUrl ? (
            <Typography variant="body2" color="text.secondary">
              Your password is changed on the sign-in page: at least 8 characters, with at least 3 of lower-case
              letters, upper-case letters, digits and special characters.
            </Typography>
          ) : (
            <Typography variant="body2" color="text.secondary">
              Your password is managed by your organisation’s sign-in service.
            </Typography>
          )}
          <Divider />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            {user.passwordChangeUrl && (
              <Button
                variant="outlined"
                href={user.passwordChangeUrl}
                startIcon={<LockResetOutlinedIcon aria-hidden="true" />}
              >
                Change password
              </Button>
            )}
            <Button variant="outlined" color="inherit" onClick={signOut} startIcon={<LogoutIcon aria-hidden="true" />}>
              Log out
            </Button>
          </Stack>
        </Stack>
      </SettingsSection>
      <AnalyticsConsentSetting />
    </Stack>
  );
}

/** /my-account (spec §2 Settings): profile picture, full name, job title, e-mail, password, logout and save. */
export function MyAccountPage() {
  const profile = useProfile();
  return (
    <Page title="My account" section="Settings">
      {profile.data ? (
        <AccountEditor profile={profile.data} />
      ) : profile.error ? (
        <LoadFailure what="Your profile" error={profile.error} retry={() => void profile.mutate()} />
      ) : (
        <Loading what="your profile" />
      )}
    </Page>
  );
}
