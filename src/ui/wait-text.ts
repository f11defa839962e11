/**
 * How long until a limit lets the visitor try again, in the words a seller reads: from a 429's
 * Retry-After (or the lead answer's retry_after_seconds). Whole minutes, rounded up, at least one.
 */
export function waitText(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds) || seconds <= 0) return 'later';
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  if (minutes < 60) return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.ceil(minutes / 60);
  return `in ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
}
