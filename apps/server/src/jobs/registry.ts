import { cohortOrderPerformer } from './cohort-order.performer';
import { designHistoryExportExpiryPerformer, designHistoryExportPerformer } from './design-history-export.performer';
import { designHistoryIncomingSweepPerformer } from './design-history-incoming.performer';
import { deviceVersionPerformer } from './device-version.performer';
import { imagingCheckPerformer } from './imaging-check.performer';
import { imagingModelsPerformer, imagingModelsSweepPerformer } from './imaging-models.performer';
import type { JobDefinition } from './job-definition';
import { mailDeliveryPerformer } from './mail-delivery.performer';
import { measurementOrderPerformer } from './measurement-order.performer';
import { resultBackfillPerformer } from './result-backfill.performer';
import { selfCheckPerformer } from './self-check.performer';
import { sessionPurgePerformer } from './session-purge.performer';
import { simulationPerformer } from './simulation.performer';
import { ssmBuildPerformer } from './ssm-build.performer';
import { trialOutcomesPerformer } from './trial-outcomes.performer';
import { trialPatientPerformer } from './trial-patient.performer';
import { trialReportPerformer } from './trial-report.performer';
import { uploadExpiryPerformer } from './upload-expiry.performer';

/** Every kind of durable job with its performer, worked by the in-process runner and by `npm run worker`. */
export const jobDefinitions: readonly JobDefinition<unknown>[] = [
  selfCheckPerformer,
  sessionPurgePerformer,
  mailDeliveryPerformer,
  cohortOrderPerformer,
  deviceVersionPerformer,
  uploadExpiryPerformer,
  simulationPerformer,
  measurementOrderPerformer,
  ssmBuildPerformer,
  imagingCheckPerformer,
  imagingModelsPerformer,
  trialPatientPerformer,
  trialReportPerformer,
  trialOutcomesPerformer,
  designHistoryExportPerformer,
  designHistoryExportExpiryPerformer,
  imagingModelsSweepPerformer,
  resultBackfillPerformer,
  designHistoryIncomingSweepPerformer,
];
