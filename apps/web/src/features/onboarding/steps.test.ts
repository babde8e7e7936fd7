import { describe, expect, it } from 'vitest';
import type { Onboarding, OnboardingState } from '@insilico/contracts';
import {
  checkCompany,
  checkDeviceDetails,
  inviteeError,
  labelOf,
  mayOpenStep,
  onboardingTarget,
  pathOfStep,
  stepOfPath,
  stepperHeaders,
  type CompanyForm,
} from './steps';
import { stateAfterStep } from './useSaveStep';

const emptyState: OnboardingState = {
  bodyPart: null,
  developmentPhase: null,
  deviceInfo: null,
  yourCompany: null,
  yourTeam: [],
  stepActive: 1,
  stepInfo: {},
};

function onboardingAt(stepActive: number, extra: Partial<Onboarding> = {}): Onboarding {
  return {
    state: { ...emptyState, stepActive },
    mayCreateWorkspace: true,
    workspaceCount: 0,
    devicePicture: null,
    ...extra,
  };
}

const company: CompanyForm = {
  companyName: 'Cardio Inc',
  country: 'US',
  state: 'CA',
  streetAddress: '1 Main Street',
  city: 'Los Angeles',
  zipCode: '90001',
};

describe('onboarding steps', () => {
  it('has the five stepper headers of spec §2', () => {
    expect(stepperHeaders).toEqual(['Body part', 'Development stage', 'Device details', 'Your company', 'Your team']);
  });

  it('maps steps to paths and back', () => {
    expect(pathOfStep(1)).toBe('/onboarding/body-part');
    expect(pathOfStep(2)).toBe('/onboarding/development-phase');
    expect(pathOfStep(5)).toBe('/onboarding/your-team');
    expect(pathOfStep(6)).toBe('/onboarding/complete');
    expect(pathOfStep(0)).toBe('/onboarding/body-part');
    expect(pathOfStep(9)).toBe('/onboarding/complete');
    expect(stepOfPath('/onboarding/your-company')).toBe(4);
    expect(stepOfPath('/onboarding/no-access')).toBeNull();
  });

  it('sends a user without a workspace to the step the server has active', () => {
    expect(onboardingTarget(onboardingAt(1))).toBe('/onboarding/body-part');
    expect(onboardingTarget(onboardingAt(4))).toBe('/onboarding/your-company');
    // Team saved but the workspace not made (completion failed): the team step, whose Finish completes.
    expect(onboardingTarget(onboardingAt(6))).toBe('/onboarding/your-team');
  });

  it('sends a user who may not create a workspace and has none to /onboarding/no-access', () => {
    expect(onboardingTarget(onboardingAt(1, { mayCreateWorkspace: false }))).toBe('/onboarding/no-access');
    expect(onboardingTarget(onboardingAt(1, { mayCreateWorkspace: false, workspaceCount: 1 }))).toBe(
      '/onboarding/body-part',
    );
  });

  it('opens only the steps reached so far', () => {
    expect(mayOpenStep(1, onboardingAt(3))).toBe(true);
    expect(mayOpenStep(3, onboardingAt(3))).toBe(true);
    expect(mayOpenStep(4, onboardingAt(3))).toBe(false);
    expect(mayOpenStep(5, onboardingAt(6))).toBe(true);
  });

  it('labels enumeration keys', () => {
    expect(labelOf('heart_and_thorax')).toBe('Heart and thorax');
    expect(labelOf('valve_chord_replacement')).toBe('Valve chord replacement');
    expect(labelOf('admin')).toBe('Admin');
  });

  it('saves the whole state with the next step active', () => {
    const saved = { ...emptyState, bodyPart: 'heart_and_thorax' as const, stepActive: 2 };
    const next = stateAfterStep(saved, 2, { developmentPhase: ['clinical_trial'] });
    expect(next).toMatchObject({ bodyPart: 'heart_and_thorax', developmentPhase: ['clinical_trial'], stepActive: 3 });
    expect(typeof next.stepInfo.step2SavedAt).toBe('string');
  });
});

describe('device details check', () => {
  it('asks for the specification when the type is Other, with the contracts message', () => {
    const result = checkDeviceDetails({ deviceName: 'Occluder X', deviceType: 'other', deviceTypeOther: '  ' });
    expect(result).toEqual({
      ok: false,
      errors: { deviceTypeOther: 'Please specify the device type when you choose Other.' },
    });
  });

  it('accepts Other with its specification, and drops a specification for other types', () => {
    expect(checkDeviceDetails({ deviceName: 'Occluder X', deviceType: 'other', deviceTypeOther: 'Occluder' })).toEqual({
      ok: true,
      value: { deviceName: 'Occluder X', deviceType: 'other', deviceTypeOther: 'Occluder' },
    });
    expect(checkDeviceDetails({ deviceName: ' Stent S ', deviceType: 'stent', deviceTypeOther: 'left over' })).toEqual({
      ok: true,
      value: { deviceName: 'Stent S', deviceType: 'stent', deviceTypeOther: null },
    });
  });

  it('needs a name and a type', () => {
    const result = checkDeviceDetails({ deviceName: '', deviceType: '', deviceTypeOther: '' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.deviceName).toBe('Enter the name of your device.');
      expect(result.errors.deviceType).toBe('Choose the device type.');
    }
  });
});

describe('company check', () => {
  it('accepts a US company with its state', () => {
    expect(checkCompany(company)).toEqual({ ok: true, value: { ...company } });
  });

  it('needs the state for the United States (contracts message)', () => {
    const result = checkCompany({ ...company, state: '' });
    expect(result).toEqual({ ok: false, errors: { state: 'Choose the state for a company in the United States.' } });
  });

  it('drops a state for other countries and refuses unknown countries', () => {
    expect(checkCompany({ ...company, country: 'DE', state: 'CA' })).toEqual({
      ok: true,
      value: { ...company, country: 'DE', state: null },
    });
    const unknown = checkCompany({ ...company, country: 'ZZ' });
    expect(unknown).toEqual({ ok: false, errors: { country: 'Choose the country from the list.' } });
    const missing = checkCompany({ ...company, country: '', companyName: ' ' });
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.errors.country).toBe('Choose the country from the list.');
      expect(missing.errors.companyName).toBe('Enter your company’s name.');
    }
  });
});

describe('invitee check', () => {
  const list = [{ email: 'bo@example.com', role: 'member' as const }];
  it('accepts a new colleague and refuses empty, invalid, own and duplicate addresses', () => {
    expect(inviteeError('Cy@Example.com', list, 'ada@example.com')).toBeNull();
    expect(inviteeError(' ', list, 'ada@example.com')).toBe('Enter your colleague’s e-mail address.');
    expect(inviteeError('not-an-address', list, 'ada@example.com')).toBe('Enter a valid e-mail address.');
    expect(inviteeError('ADA@example.com', list, 'ada@example.com')).toBe(
      'You are in the team already; invite your colleagues.',
    );
    expect(inviteeError('bo@example.com', list, 'ada@example.com')).toBe('bo@example.com is in the list already.');
  });
});
