/** The product's own name: the account pages' header, the e-mails' banner, Follow Up Boss's source. */
export const BRAND_NAME = 'Long Island Net Proceeds';
