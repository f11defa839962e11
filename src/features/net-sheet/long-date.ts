/** A YYYY-MM-DD date in words, read as a calendar day (no time zone can move it): the web sheet's and the PDF's. */
export const longDate = (iso: string): string =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' });
