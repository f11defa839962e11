/** A YYYY-MM-DD date in words ("March 1, 2027"), read as a calendar day (no time zone can move it). */
export const longDateOf = (iso: string): string =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
