/**
 * The campaign a visitor arrived from (issue 23, M1): the utm_* parameters of the link they followed
 * (an agent's /r/ link shared on Facebook, a newsletter's town page), kept for the browser tab's
 * session so a lead sent pages later still says where the visitor came from. The latest link with
 * parameters wins: it is the campaign that brought them back. Nothing is kept where the browser
 * refuses storage (private modes): the lead is then sent without it.
 */
import { UTM_KEYS, UTM_MAX_LENGTH } from './lead-origin.ts';

const STORAGE_KEY = 'arrival-utm';

type Utm = Partial<Record<(typeof UTM_KEYS)[number], string>>;

/** The utm_* parameters of a query string, trimmed to what the API takes; null without any. */
export function utmOf(search: string): Utm | null {
  const params = new URLSearchParams(search);
  const utm: Utm = {};
  for (const key of UTM_KEYS) {
    const value = params.get(`utm_${key}`)?.trim().slice(0, UTM_MAX_LENGTH);
    if (value) utm[key] = value;
  }
  return Object.keys(utm).length > 0 ? utm : null;
}

/** On each page load: the landing URL's parameters, if it has any, replace those kept. */
export function rememberArrival(search = window.location.search): void {
  const utm = utmOf(search);
  if (!utm) return;
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(utm));
  } catch {
    // Storage refused: the lead goes without its campaign.
  }
}

/** The kept campaign, for the lead forms; null when none (or storage is refused or tampered with). */
export function arrivalUtm(): Utm | null {
  try {
    const kept: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? 'null');
    if (typeof kept !== 'object' || kept === null) return null;
    // Read back as the query string it came from, so the same checks apply.
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(kept)) if (typeof value === 'string') params.set(`utm_${key}`, value);
    return utmOf(params.toString());
  } catch {
    return null;
  }
}
