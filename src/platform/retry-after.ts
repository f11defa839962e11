// The Retry-After header (RFC 9110 §10.2.3), read the same way for every outside service that may
// answer 429 or 503: e-mail providers, Follow Up Boss, the RESO Web API, webhook receivers. It sits
// on the ground floor so that a feature reads it without importing another feature.

/**
 * A Retry-After header in seconds from `now`: delta-seconds ("120") or an HTTP date. Answers
 * undefined when absent or unreadable; a date in the past is 0.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text));
  // An HTTP date names its month ("Wed, 21 Oct 2015 07:28:00 GMT"); bare numbers are not dates.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}
