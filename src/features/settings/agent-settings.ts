/**
 * The agent's calculator defaults: GET and PATCH /api/agents/me/settings and the settings form
 * share these schemas and messages.
 */
import { z } from 'zod';

export const SETTINGS_LIMITS = {
  maxFeeDollars: 100_000,
  maxTransferTaxPer1000: 20,
  maxCommissionPercent: 20,
} as const;

export const SETTINGS_MESSAGES = {
  saved: 'Calculator settings saved successfully!',
  saveFailed: 'Failed to save settings',
  loadFailed: 'Failed to load current settings',
  siteWideOnly: 'Only admins can change site-wide settings',
} as const;

const aNumber = (label: string) =>
  z.number({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a number`),
  });

const wholeDollars = (label: string) =>
  aNumber(label)
    .int(`${label} must be in whole dollars`)
    .min(0, `${label} cannot be negative`)
    .max(SETTINGS_LIMITS.maxFeeDollars, `${label} must be at most $100,000`);

/** Whole hundredths: 1.15 and 6 pass, 0.015 does not (checked on the scaled value, so float noise in 1.15 * 100 is tolerated). */
const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

const hundredths = (label: string, max: number, unit: string) =>
  aNumber(label)
    .min(0, `${label} cannot be negative`)
    .max(max, `${label} must be at most ${max}${unit}`)
    .refine(hasAtMostTwoDecimals, `${label} can have at most two decimals (steps of 0.01)`);

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
