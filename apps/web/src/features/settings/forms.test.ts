import { describe, expect, it } from 'vitest';
import { fullNameRequiredMessage, type Device } from '@insilico/contracts';
import { checkProfile, companyFormOf, isChanged, manageDeviceFormOf, profileFormOf } from './forms';
import { testDevice } from '../../../test/fixtures/device.fixtures';

const device: Device = { ...testDevice, deviceType: 'other', deviceTypeOther: 'Occluder' };

describe('settings forms', () => {
  it('sees a change in any field; stage order does not count', () => {
    const saved = manageDeviceFormOf({
      ...device,
      deviceDevPhase: ['concept_and_design_feasibility', 'clinical_trial'],
    });
    expect(isChanged(saved, { ...saved })).toBe(false);
    expect(isChanged({ ...saved, deviceName: 'Valve Y' }, saved)).toBe(true);
    expect(
      isChanged({ ...saved, developmentStages: ['clinical_trial', 'concept_and_design_feasibility'] }, saved),
    ).toBe(false);
    expect(isChanged({ ...saved, developmentStages: ['clinical_trial'] }, saved)).toBe(true);
  });

  it('checks the profile: a name is needed, both are trimmed, an empty job title clears it', () => {
    expect(checkProfile({ fullName: '  ', jobTitle: '' })).toEqual({
      ok: false,
      errors: { fullName: fullNameRequiredMessage },
    });
    expect(checkProfile({ fullName: ' Ada ', jobTitle: '  ' })).toEqual({
      ok: true,
      value: { fullName: 'Ada', jobTitle: null },
    });
    expect(checkProfile({ fullName: 'Ada', jobTitle: 'x'.repeat(101) })).toMatchObject({ ok: false });
    expect(profileFormOf({ email: 'a@b.c', fullName: 'Ada', jobTitle: null, pictureUrl: null })).toEqual({
      fullName: 'Ada',
      jobTitle: '',
    });
  });

  it('reads the device and company forms from the device', () => {
    expect(manageDeviceFormOf(device)).toEqual({
      deviceName: 'Valve X',
      deviceType: 'other',
      deviceTypeOther: 'Occluder',
      developmentStages: ['clinical_trial'],
      dataRegion: 'us',
    });
    expect(companyFormOf({ ...device, country: 'DE', countryState: null })).toMatchObject({ country: 'DE', state: '' });
    expect(companyFormOf(device)).toEqual({
      companyName: 'Cardio Inc',
      country: 'US',
      state: 'CA',
      streetAddress: '1 Main Street',
      city: 'San Francisco',
      zipCode: '94105',
    });
  });
});
