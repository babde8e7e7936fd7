import { defineJob } from './job-definition';
import { imagingCheckJob, imagingPagePath } from './imaging-check.job';

/**
 * Re-checks an uploaded imaging dataset in the CPU pool, then accepted (modelling) or refused with the findings,
 * and the uploader is told. Idempotent: only a dataset still being checked changes, the notification is keyed.
 */
export const imagingCheckPerformer = defineJob(imagingCheckJob, async ({ data, signal, progress, services }) => {
  const dataset = await services.imaging.check(data.datasetId, { progress, signal });
  if (!dataset) return { datasetId: data.datasetId, outcome: 'deleted' };
  const accepted = dataset.status !== 'refused';
  await services.notifications.post({
    userId: data.userId,
    kind: accepted ? 'imaging.accepted' : 'imaging.refused',
    title: accepted ? `Imaging dataset ${dataset.name} arrived` : `Imaging dataset ${dataset.name} was refused`,
    body: accepted
      ? 'Every file is de-identified. The patient models are being made; the cohort is ready when they are.'
      : 'Some files still identify someone or are not DICOM. The dataset page names each file and tag.',
    link: imagingPagePath(dataset.deviceId, dataset.id),
    dedupeKey: `imaging-checked:${dataset.id}`,
  });
  return { datasetId: dataset.id, outcome: dataset.status };
});
