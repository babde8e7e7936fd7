// Device versions (issue 5 item 6): the widgets the project-creation wizard mounts, and the versions page.
export { deviceVersionRoutes } from './routes';
export { DeviceVersionChooser } from './components/DeviceVersionChooser';
export { NewDeviceVersionForm } from './components/NewDeviceVersionForm';
export { DeviceVersionStatusChip } from './components/DeviceVersionStatusChip';
export { deviceVersionPath, deviceVersionsPath, newDeviceVersionPath } from './paths';
export type { DeviceVersionChooserProps, DeviceVersionFormDraft, NewDeviceVersionFormProps } from './props';
export { fetchChosenDeviceVersions, unusableVersionIds, useChosenDeviceVersions } from './api';
/** The workspace's resumable uploads (tus), which design history attachments use too. */
export { deviceVersionUrls } from './api';
export { formatBytes } from './format';
