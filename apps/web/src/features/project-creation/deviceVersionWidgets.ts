import { DeviceVersionChooser, NewDeviceVersionForm } from '../device-versions';
import type { DeviceVersionWidgets } from './components/DeviceVersionSteps';

/** The device-versions feature's widgets, mounted on the wizard's device-version steps. */
export const deviceVersionWidgets: DeviceVersionWidgets = {
  Chooser: DeviceVersionChooser,
  NewForm: NewDeviceVersionForm,
};
