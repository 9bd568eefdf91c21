/** The queue of mail-worker's maintenance job (deleting rows past their retention). */
export const MAINTENANCE_QUEUE = 'maintenance';

/** The one job name on it: a repeatable job every MAINTENANCE_INTERVAL_SECONDS. */
export const PURGE_JOB = 'purge';

/**
 * Payload of a `purge` job: nothing but a version. What to delete is decided when the job runs,
 * from the configuration and the clock of the worker that runs it.
 */
export interface PurgeJob {
  version: 1;
}
