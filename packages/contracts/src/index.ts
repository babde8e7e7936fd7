export { apiErrorSchema, errorCodes, type ApiErrorBody } from './errors';
export { userProfileSchema, loginQuerySchema, type UserProfile } from './auth';
export {
  notificationSchema,
  notificationListQuerySchema,
  notificationListSchema,
  markSeenSchema,
  notificationStreamEvents,
  unseenEventSchema,
  type Notification,
  type NotificationList,
  type MarkSeen,
} from './notifications';
export { jobSchema, jobStatusSchema, type Job, type JobStatus } from './jobs';
export { healthSchema, type Health } from './health';
