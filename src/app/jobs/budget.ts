/** Stop claiming new batches after this long; scheduled functions may run for 30 seconds. */
export const TIME_BUDGET_MS = 20_000;
/** Rows a job claims at a time. */
export const BATCH = 50;
