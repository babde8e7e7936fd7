import type { Device } from '@insilico/contracts';

/** A workspace as `GET /api/devices/:id` answers it to its admin (tests of the settings pages). */
export const testDevice: Device = {
  deviceId: '5b0c9a4e-3f7e-4a51-9d8e-0f6f8f7c1a11',
  deviceName: 'Valve X',
  devicePicture: null,
  datetimeCreation: '2026-11-21T10:00:00.000Z',
  role: 'admin',
  userStatus: 'ok',
  isAdmin: true,
  deviceType: 'valve_replacement',
  deviceTypeOther: null,
  bodyParts: ['heart_and_thorax'],
  deviceDevPhase: ['clinical_trial'],
  companyName: 'Cardio Inc',
  country: 'US',
  countryState: 'CA',
  streetAddress: '1 Main Street',
  city: 'San Francisco',
  zipCode: '94105',
  dataRegion: 'us',
  dataRegionChangeable: true,
  deviceUsers: 3,
};
