// Device versions (issue 5 item 6): the widgets the project-creation wizard mounts, and the versions page.
export type { DeviceVersionChooserProps, DeviceVersionFormDraft, NewDeviceVersionFormProps } from './props';
