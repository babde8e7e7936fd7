import { describe, expect, it } from 'vitest';
import type { OnboardingState } from '@insilico/contracts';
import { addDeviceFlow, addDeviceTarget, mayOpenAddDeviceStep } from './addDeviceFlow';

const company = {
  companyName: 'Cardio GmbH',
  country: 'DE',
  state: null,
  streetAddress: 'Hauptstraße 1',
  city: 'Berlin',
  zipCode: '10115',
};
const state = (stepActive: number, yourCompany: OnboardingState['yourCompany'] = company): OnboardingState => ({
  bodyPart: null,
  developmentPhase: null,
  deviceInfo: null,
  yourCompany,
  yourTeam: [],
  stepActive,
  stepInfo: {},
});

describe('add device flow', () => {
  it('leads through its own routes, skipping the company step', () => {
    expect(addDeviceFlow.next(1)).toBe('/add-device/development-stage');
    expect(addDeviceFlow.next(2)).toBe('/add-device/device-details');
    expect(addDeviceFlow.next(3)).toBe('/add-device/your-team');
    expect(addDeviceFlow.back(1)).toBe('/add-device');
    expect(addDeviceFlow.back(5)).toBe('/add-device/device-details');
    expect(addDeviceFlow.completePath).toBe('/');
  });

  it('opens only pages reached; the team page once the device details are saved and the company is known', () => {
    expect(mayOpenAddDeviceStep(1, state(1))).toBe(true);
    expect(mayOpenAddDeviceStep(2, state(1))).toBe(false);
    expect(mayOpenAddDeviceStep(5, state(3))).toBe(false);
    expect(mayOpenAddDeviceStep(5, state(4))).toBe(true);
    expect(mayOpenAddDeviceStep(5, state(4, null))).toBe(false);
    expect(addDeviceTarget(state(1))).toBe('/add-device/create-new');
    expect(addDeviceTarget(state(3))).toBe('/add-device/device-details');
    expect(addDeviceTarget(state(4))).toBe('/add-device/your-team');
    // A completion that failed (team saved, stepActive 6) goes back to the team page.
    expect(addDeviceTarget(state(6))).toBe('/add-device/your-team');
    expect(addDeviceTarget(state(6, null))).toBe('/add-device/device-details');
  });
});
