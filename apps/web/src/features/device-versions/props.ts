import type { DeviceVersion } from '@insilico/contracts';

/**
 * The props of the device-version widgets the project-creation wizard mounts (steps `device-version` and
 * `new-device-version`). Kept in one module so the wizard and this feature agree on them.
 */

/** Choose existing device versions of the workspace (ready or still processing; failed ones are not offered). */
export interface DeviceVersionChooserProps {
  deviceId: string;
  /** The chosen version ids. */
  value: readonly string[];
  onChange: (versionIds: string[]) => void;
  /** Versions to mark as "new in this project" (created in the wizard); they are chosen like the others. */
  highlightIds?: readonly string[];
  disabled?: boolean;
}

/** The name and description as typed (the wizard keeps them in its server-side draft). */
export interface DeviceVersionFormDraft {
  name: string;
  description: string;
}

/**
 * Create a device version: name (live availability check, spec §5 message), description, one or more .stl files
 * uploaded with tus (progress, pause/resume, "Upload failed" with Try again). Submitting creates the version
 * (status `processing`) and hands it to `onCreated`; processing continues in the background.
 */
export interface NewDeviceVersionFormProps {
  deviceId: string;
  /** Start values, e.g. the wizard's draft (`firstDeviceVersion`). */
  initialDraft?: DeviceVersionFormDraft;
  /** Called as the name or description change (debounce on the caller's side if it saves). */
  onDraftChange?: (draft: DeviceVersionFormDraft) => void;
  /** A project that already exists and gets the version once it is ready (needs project.manage there). */
  targetProjectId?: string;
  /** The version was created; it is processing now. */
  onCreated: (version: DeviceVersion) => void;
  /** Shows a Cancel button when given. */
  onCancel?: () => void;
  /** The submit button's text; default "Create device version". */
  submitLabel?: string;
  /** True while files are chosen, uploading or uploaded but the version is not created (leave confirmation). */
  onDirtyChange?: (dirty: boolean) => void;
}
