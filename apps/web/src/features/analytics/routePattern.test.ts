import { describe, expect, it } from 'vitest';
import { routePattern } from './routePattern';

describe('routePattern', () => {
  it('keeps route words and hides ids and anything else a path may carry', () => {
    expect(routePattern('/')).toBe('/');
    expect(routePattern('/my-account')).toBe('/my-account');
    expect(routePattern('/projects/3f2a1c4e-1b2c-4d5e-8f90-123456789abc/rooms/')).toBe('/projects/:id/rooms');
    expect(routePattern('/cohorts/Patient%207/x1')).toBe('/cohorts/:id/:id');
    expect(routePattern('/add-device/device-details')).toBe('/add-device/device-details');
  });
});
