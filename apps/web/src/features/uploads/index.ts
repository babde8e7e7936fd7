export { uploadRoutes } from './routes';
// For the project creation wizard's own-imaging-data steps (issue 19): the same flow and views as /upload-images.
export { ImagingFlowProvider, useImagingFlow } from './components/ImagingFlowContext';
export {
  AnonymizeView,
  DicomTreeView,
  ImagingSourceButtons,
  InterruptedUpload,
  UploadPanel,
  canAnonymize,
  imagingStatusLabels,
  usePendingUpload,
  type UploadSource,
} from './components/ImagingViews';
export { useImagingDatasets } from './api';
export { LIMITS_TEXT } from './imaging/limits';
