import { Outlet } from 'react-router';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { ImagingFlowProvider, useImagingFlow } from './ImagingFlowContext';

export const uploadImagesBase = '/upload-images';

/**
 * Until the chosen data is anonymized, what the user chose (the files read, series left out, regions masked, the
 * name) lives only in this page: leaving the flow asks first with Stay and Leave (spec §4 "Leaving a page"). Moving
 * between its steps does not ask. Once anonymized, the zip is kept in the browser and the upload resumes later.
 */
function LeaveFlowConfirmation() {
  const flow = useImagingFlow();
  const unsaved = (flow.scan !== null || flow.busy) && flow.output === null;
  return useLeaveConfirmation(unsaved, { within: uploadImagesBase }).dialog;
}

/** `/upload-images/*` (spec §2 "Image upload"): the flow's shared state around its steps. */
export function UploadImagesLayout() {
  return (
    <ImagingFlowProvider>
      <LeaveFlowConfirmation />
      <Outlet />
    </ImagingFlowProvider>
  );
}
