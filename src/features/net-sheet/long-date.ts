import { onFirstUse } from '../../ui/on-first-use.ts';

// Made once: toLocaleDateString builds a formatter on every call (see sheet-money.ts).
const LONG = onFirstUse(() => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }));

/** A YYYY-MM-DD date in words, read as a calendar day (no time zone can move it): the web sheet's and the PDF's. */
export const longDate = (iso: string): string => LONG().format(new Date(`${iso}T00:00:00Z`));
