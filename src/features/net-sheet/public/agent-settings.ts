/**
 * The agent's calculator defaults: GET and PATCH /api/agents/me/settings and the settings form
 * share these schemas and messages.
 */
import * as z from 'zod/mini';

export const SETTINGS_LIMITS = {
  maxFeeDollars: 100_000,
  maxTransferTaxPer1000: 20,
  maxCommissionPercent: 20,
  maxDaysToClosing: 365,
} as const;

const aNumber = (label: string) =>
  z.number({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`),
  });

const wholeDollars = (label: string) =>
  aNumber(label).check(
    z.int(`${label} must be in whole dollars`),
    z.gte(0, `${label} cannot be negative`),
    z.lte(SETTINGS_LIMITS.maxFeeDollars, `${label} must be at most $100,000`),
  );

/** Whole hundredths: 1.15 and 6 pass, 0.015 does not (checked on the scaled value, so float noise in 1.15 * 100 is tolerated). */
const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

const hundredths = (label: string, max: number, unit: string) =>
  aNumber(label).check(
    z.gte(0, `${label} cannot be negative`),
    z.lte(max, `${label} must be at most ${max}${unit}`),
    z.refine(hasAtMostTwoDecimals, `${label} can have at most two decimals (steps of 0.01)`),
  );

/** Shape 1 of PATCH: the four calculator defaults, in dollars and percent. */
export const calculatorSettingsSchema = z.object({
  default_attorney_fee: wholeDollars('Attorney fee'),
  default_recording_fee: wholeDollars('Recording fee'),
  transfer_tax_rate_per_1000: hundredths('Transfer tax rate', SETTINGS_LIMITS.maxTransferTaxPer1000, ' per $1,000'),
  default_commission_percent: hundredths('Commission', SETTINGS_LIMITS.maxCommissionPercent, ' %'),
});
export type CalculatorSettings = z.infer<typeof calculatorSettingsSchema>;

/**
 * Shapes 2 and 3 of PATCH (the spec's website logo and town page logo fields) change what every
 * visitor sees, not the agent's own page: a body naming any of these keys is one of them.
 */
export const SITE_WIDE_KEYS = [
  'website_logo',
  'website_logo_scale',
  'website_logo_type',
  'town_page_logo',
  'town_page_logo_type',
  'show_town_page_logo',
] as const;

export const settingsResponseSchema = z.object({ success: z.literal(true), settings: calculatorSettingsSchema });

/** The net sheet's defaults for an agent who has not chosen them (NULL columns, see migration 0019). */
export const NET_SHEET_DEFAULTS = {
  daysToClosing: 45,
  titleCloserPickup: true,
  payoffBankAttorney: false,
  rp5217OnSeller: false,
} as const;

/**
 * The commission cut in two when the agent has not split it (and how migration 0019 split existing
 * agents): the buyer's agent side is half rounded DOWN to hundredths, the listing side the remainder,
 * so 5.25 % is 2.63 + 2.62 and the two always add up to the commission.
 */
export function splitCommission(commissionPercent: number): { listing: number; buyerAgent: number } {
  const hundredthsTotal = Math.round(commissionPercent * 100);
  const buyerAgent = Math.floor(hundredthsTotal / 2);
  return { listing: (hundredthsTotal - buyerAgent) / 100, buyerAgent: buyerAgent / 100 };
}

/**
 * A new total commission cut as the agent's sides were (newcomer audit minor 11): a 3 / 2 split
 * stays 60 / 40 (5.5 becomes 3.30 / 2.20), in hundredths, the listing side rounded and the buyer's
 * agent side the rest, so the two always add up to the total. Without a split to follow (both sides
 * 0), the total is cut in half as the server cuts one.
 */
export function resplitCommission(
  commissionPercent: number,
  sides: { listing: number; buyerAgent: number },
): { listing: number; buyerAgent: number } {
  const hundredthsTotal = Math.round(commissionPercent * 100);
  const listingNow = Math.round(sides.listing * 100);
  const sideTotal = listingNow + Math.round(sides.buyerAgent * 100);
  if (sideTotal <= 0) return splitCommission(commissionPercent);
  const listing = Math.round((hundredthsTotal * listingNow) / sideTotal);
  return { listing: listing / 100, buyerAgent: (hundredthsTotal - listing) / 100 };
}

const aBoolean = (label: string) =>
  z.boolean({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be true or false`),
  });

/**
 * Shape 4 of PATCH (the settings screen's): the agent's whole calculator defaults with the
 * commission split into its two sides. The commission is not sent: it is the sum of the sides, and
 * the quick estimate goes on using that sum.
 */
/**
 * The commission is the sum of its sides: its limit is told in the four-field shape's words, on its
 * field. Checked beside the fields (an intersection parses both halves), so it is told even when
 * another field is wrong, as the four-field shape tells it.
 */
const commissionLimit = z
  .object({ default_listing_percent: z.number(), default_buyer_agent_percent: z.number() })
  .check(
    z.refine(
      (sides) =>
        Math.round(sides.default_listing_percent * 100) + Math.round(sides.default_buyer_agent_percent * 100) <=
        SETTINGS_LIMITS.maxCommissionPercent * 100,
      {
        message: `Commission must be at most ${SETTINGS_LIMITS.maxCommissionPercent} %`,
        path: ['default_commission_percent'],
      },
    ),
  );

export const agentDefaultsSchema = z.intersection(
  z.object({
    default_attorney_fee: wholeDollars('Attorney fee'),
    default_recording_fee: wholeDollars('Recording fee'),
    transfer_tax_rate_per_1000: hundredths('Transfer tax rate', SETTINGS_LIMITS.maxTransferTaxPer1000, ' per $1,000'),
    default_listing_percent: hundredths('Listing side', SETTINGS_LIMITS.maxCommissionPercent, ' %'),
    default_buyer_agent_percent: hundredths('Buyer’s agent side', SETTINGS_LIMITS.maxCommissionPercent, ' %'),
    default_days_to_closing: aNumber('Days to closing').check(
      z.int('Days to closing must be a whole number of days'),
      z.gte(1, 'Days to closing must be at least 1'),
      z.lte(SETTINGS_LIMITS.maxDaysToClosing, `Days to closing must be at most ${SETTINGS_LIMITS.maxDaysToClosing}`),
    ),
    default_title_closer_pickup: aBoolean('Title closer pick-up'),
    default_payoff_bank_attorney: aBoolean('Payoff bank attorney fee'),
    default_rp5217_on_seller: aBoolean('RP-5217 on the seller'),
  }),
  commissionLimit,
);
export type AgentDefaults = z.infer<typeof agentDefaultsSchema>;

/** What GET and PATCH answer: the four quick-estimate fields and the net sheet's defaults. */
export const agentSettingsSchema = z.extend(calculatorSettingsSchema, {
  default_listing_percent: z.number(),
  default_buyer_agent_percent: z.number(),
  default_days_to_closing: z.number(),
  default_title_closer_pickup: z.boolean(),
  default_payoff_bank_attorney: z.boolean(),
  default_rp5217_on_seller: z.boolean(),
});
export type AgentSettings = z.infer<typeof agentSettingsSchema>;
export const agentSettingsResponseSchema = z.object({ success: z.literal(true), settings: agentSettingsSchema });
export const agentSettingsSavedSchema = z.extend(agentSettingsResponseSchema, { message: z.string() });
