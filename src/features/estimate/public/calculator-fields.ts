/**
 * The quick calculator's two amounts, named and exemplified alike wherever a seller types them: the
 * home, county and town pages' modal and an agent's /r/ page (newcomer audit minor 27 found "Sale
 * Price / Mortgage Payoff" with $450,000 / $200,000 on one and "Expected sale price / Mortgage
 * balance" with 780,000 / 450,000 on the other).
 */
export const SALE_PRICE_FIELD = { label: 'Expected sale price', placeholder: '780,000' } as const;

export const MORTGAGE_FIELD = {
  label: 'Mortgage balance',
  optionalLabel: 'Mortgage balance (optional)',
  placeholder: '450,000',
} as const;

/** The API's schema names the field "Mortgage payoff"; the forms say the label the seller sees. */
export const mortgageMessage = (message: string): string => message.replace('Mortgage payoff', MORTGAGE_FIELD.label);
