import {
  createDeviceSchema,
  deviceListSchema,
  deviceParamsSchema,
  deviceSchema,
  selectDeviceSchema,
  selectedDeviceSchema,
  updateDeviceSchema,
} from './devices';
import { endpoint } from './endpoint';
import { onboardingCompleteSchema } from './onboarding';

const selectedDevicePath = '/api/me/selected-device';

/**
 * Device workspaces (docs/decisions/endpoints-in-contracts.md): list, add, read and change (admins), and the one the
 * user works in; in a file of its own because adding one answers the onboarding's schema (`onboarding.ts` imports
 * `devices.ts`).
 */
export const deviceEndpoints = {
  list: endpoint({ method: 'GET', path: '/api/devices', response: { 200: deviceListSchema } }),
  create: endpoint({
    method: 'POST',
    path: '/api/devices',
    body: createDeviceSchema,
    response: { 201: onboardingCompleteSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: '/api/devices/:deviceId',
    params: deviceParamsSchema,
    response: { 200: deviceSchema },
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/api/devices/:deviceId',
    params: deviceParamsSchema,
    body: updateDeviceSchema,
    response: { 200: deviceSchema },
  }),
  selected: endpoint({ method: 'GET', path: selectedDevicePath, response: { 200: selectedDeviceSchema } }),
  select: endpoint({
    method: 'PUT',
    path: selectedDevicePath,
    body: selectDeviceSchema,
    response: { 200: selectedDeviceSchema },
  }),
};
