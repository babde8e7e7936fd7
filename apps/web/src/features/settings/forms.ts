import {
  fullNameMaxLength,
  fullNameRequiredMessage,
  jobTitleMaxLength,
  type DataRegion,
  type DevelopmentStage,
  type Device,
  type Profile,
} from '@insilico/contracts';
import type { CompanyForm, DeviceDetailsForm, FieldErrors } from '../onboarding';

/** Whether any field of a form differs from what was saved (the leave confirmation asks then). */
export function isChanged<T extends object>(form: T, saved: T): boolean {
  return (Object.keys(form) as (keyof T)[]).some((key) => {
    const a = form[key];
    const b = saved[key];
    if (Array.isArray(a) && Array.isArray(b)) return a.length !== b.length || a.some((item) => !b.includes(item));
    return a !== b;
  });
}

export interface ProfileForm {
  fullName: string;
  jobTitle: string;
}

export function profileFormOf(profile: Profile): ProfileForm {
  return { fullName: profile.fullName, jobTitle: profile.jobTitle ?? '' };
}

/** The profile as the server wants it (trimmed; an empty job title clears it), or a message per field. */
export function checkProfile(
  form: ProfileForm,
):
  | { ok: true; value: { fullName: string; jobTitle: string | null } }
  | { ok: false; errors: FieldErrors<keyof ProfileForm> } {
  const errors: FieldErrors<keyof ProfileForm> = {};
  const fullName = form.fullName.trim();
  const jobTitle = form.jobTitle.trim();
  if (!fullName) errors.fullName = fullNameRequiredMessage;
  else if (fullName.length > fullNameMaxLength) errors.fullName = `Use at most ${fullNameMaxLength} characters.`;
  if (jobTitle.length > jobTitleMaxLength) errors.jobTitle = `Use at most ${jobTitleMaxLength} characters.`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { fullName, jobTitle: jobTitle || null } };
}

/** What /manage-device edits: the device details, its development stages and the data region. */
export interface ManageDeviceForm extends DeviceDetailsForm {
  developmentStages: DevelopmentStage[];
  dataRegion: DataRegion;
}

export function manageDeviceFormOf(device: Device): ManageDeviceForm {
  return {
    deviceName: device.deviceName,
    deviceType: device.deviceType,
    deviceTypeOther: device.deviceTypeOther ?? '',
    developmentStages: [...device.deviceDevPhase],
    dataRegion: device.dataRegion,
  };
}

export function companyFormOf(device: Device): CompanyForm {
  return {
    companyName: device.companyName,
    country: device.country,
    state: device.countryState ?? '',
    streetAddress: device.streetAddress,
    city: device.city,
    zipCode: device.zipCode,
  };
}
