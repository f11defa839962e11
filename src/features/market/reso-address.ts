/** Where a RESO Web API's Property resource is, from the feed's base URL (already a valid URL). */
export const resoPropertyUrl = (base: URL): string => `${base.href.replace(/\/+$/, '')}/Property`;
