/**
 * The whole table an estimate reads (every fee of li-fees.ts and every rate of li-rates.ts, as in force
 * on the site): what an admin may change of each entry, the table's schema and its defaults.
 */
import * as z from 'zod/mini';
import { FEE_KEYS, LI_FEE_DEFAULTS, type FeeKey } from './li-fees.ts';
import { LI_RATE_DEFAULTS, RATE_KEYS, type RateKey, type SiteRate } from './li-rates.ts';

/** What an admin may change of one fee: its amount, when it was checked and its source. */
const checkedSchema = z.iso.date({ error: 'The date checked must be a date (YYYY-MM-DD)' });
const sourceSchema = z
  .string({ error: 'The source is required' })
  .check(
    z.trim(),
    z.minLength(1, 'The source is required'),
    z.maxLength(500, 'The source must be at most 500 characters'),
  );
const centsSchema = (maxCents: number, maxText: string) =>
  z
    .number({ error: 'The amount must be a number of cents' })
    .check(
      z.int('The amount must be whole cents'),
      z.gte(0, 'The amount cannot be negative'),
      z.lte(maxCents, `The amount must be at most ${maxText}`),
    );
export const feeEntrySchema = z.object({
  cents: centsSchema(100_000_00, '$100,000'),
  checked: checkedSchema,
  source: sourceSchema,
});
export type FeeEntry = z.infer<typeof feeEntrySchema>;
/** An East End exemption or price ceiling: the same entry, in the millions a fee never reaches. */
const peconicEntrySchema = z.extend(feeEntrySchema, { cents: centsSchema(100_000_000_00, '$100,000,000') });

/** Up to 4 decimals, checked on the ten-thousandths (float input such as 0.1 + 0.2 still passes). */
const fourDecimals = (value: number) => Math.abs(value * 10_000 - Math.round(value * 10_000)) < 1e-6;

/** What an admin may change of one rate: the percent, when it was checked and its source. */
export const rateEntrySchema = z.object({
  percent: z
    .number({ error: 'The rate must be a number (a percent, e.g. 2.5)' })
    .check(
      z.gte(0, 'The rate cannot be negative'),
      z.lte(100, 'The rate must be at most 100%'),
      z.refine(fourDecimals, 'The rate can have at most 4 decimals'),
    ),
  checked: checkedSchema,
  source: sourceSchema,
});
export type RateEntry = z.infer<typeof rateEntrySchema>;

/** A rate no higher than its default's `max` (100 % otherwise). */
const rateUpTo = (key: RateKey) => {
  const rate: SiteRate = LI_RATE_DEFAULTS[key];
  const max = rate.max ?? 100;
  return rateEntrySchema.check(
    z.refine((entry) => entry.percent <= max, {
      path: ['percent'],
      message: `The rate must be at most ${max}%`,
    }),
  );
};

export const rateTableSchema = z.strictObject({
  peconic_cpf_rate: rateUpTo('peconic_cpf_rate'),
  peconic_chf_rate: rateUpTo('peconic_chf_rate'),
  firpta_rate: rateUpTo('firpta_rate'),
  firpta_residence_rate: rateUpTo('firpta_residence_rate'),
  nys_nonresident_estimated_tax_rate: rateUpTo('nys_nonresident_estimated_tax_rate'),
  mansion_tax_rate: rateUpTo('mansion_tax_rate'),
  penalty_nassau_monthly: rateUpTo('penalty_nassau_monthly'),
  penalty_suffolk_first_half_monthly: rateUpTo('penalty_suffolk_first_half_monthly'),
  penalty_suffolk_comptroller_penalty: rateUpTo('penalty_suffolk_comptroller_penalty'),
  penalty_suffolk_comptroller_monthly: rateUpTo('penalty_suffolk_comptroller_monthly'),
} satisfies Record<RateKey, z.ZodMiniType<RateEntry>>);
export type RateTable = z.infer<typeof rateTableSchema>;

/** The researched rates as a table. */
export const defaultRateTable = (): RateTable =>
  rateTableSchema.parse(
    Object.fromEntries(
      RATE_KEYS.map((key) => [
        key,
        {
          percent: LI_RATE_DEFAULTS[key].percent,
          checked: LI_RATE_DEFAULTS[key].checked,
          source: LI_RATE_DEFAULTS[key].source,
        },
      ]),
    ),
  );

/**
 * The whole table: every fee and every rate present, nothing else (`satisfies` keeps it in step with
 * the defaults). The rates ride in the same table (decision 0041), so every estimate that reads the
 * fees in force reads the rates in force with them, and a stored sheet keeps both.
 */
export const feeTableSchema = z.strictObject({
  nassau_satisfaction_recording: feeEntrySchema,
  nassau_block_fee: feeEntrySchema,
  nassau_tax_map_verification: feeEntrySchema,
  suffolk_mortgage_verification: feeEntrySchema,
  suffolk_lot_verification: feeEntrySchema,
  suffolk_satisfaction_recording: feeEntrySchema,
  tp584_filing: feeEntrySchema,
  rp5217_filing: feeEntrySchema,
  suffolk_ea5217: feeEntrySchema,
  title_closer_pickup: feeEntrySchema,
  payoff_bank_attorney: feeEntrySchema,
  coop_ucc3_filing: feeEntrySchema,
  coop_transfer_agent: feeEntrySchema,
  coop_move_out_deposit: feeEntrySchema,
  peconic_exemption_improved_south_fork: peconicEntrySchema,
  peconic_exemption_vacant_south_fork: peconicEntrySchema,
  peconic_exemption_improved_southold: peconicEntrySchema,
  peconic_exemption_vacant_southold: peconicEntrySchema,
  peconic_exemption_improved_riverhead: peconicEntrySchema,
  peconic_exemption_vacant_riverhead: peconicEntrySchema,
  peconic_exemption_ceiling: peconicEntrySchema,
  ...rateTableSchema.shape,
} satisfies Record<FeeKey, z.ZodMiniType<FeeEntry>> & Record<RateKey, z.ZodMiniType<RateEntry>>);
export type FeeTable = z.infer<typeof feeTableSchema>;

/** The defaults as a table (what a fresh site uses until an admin changes a fee or a rate). */
export const defaultFeeTable = (): FeeTable =>
  feeTableSchema.parse({
    ...Object.fromEntries(
      FEE_KEYS.map((key) => [
        key,
        {
          cents: LI_FEE_DEFAULTS[key].cents,
          checked: LI_FEE_DEFAULTS[key].checked,
          source: LI_FEE_DEFAULTS[key].source,
        },
      ]),
    ),
    ...defaultRateTable(),
  });

/** Suffolk's Mortgage Fee Schedule: $5 a page, and $20 + $5 + $15 a document (research §3). */
const SUFFOLK_CENTS_PER_PAGE = 5_00;
const SUFFOLK_CENTS_PER_DOCUMENT = 40_00;

/**
 * What the sheet says of Suffolk's satisfaction recording, from the amount in force: the page count
 * it stands for, and what one page fewer would cost (audit M1: $55 or $60 are both arithmetic).
 */
export function satisfactionRecordingBasis(fees: Pick<FeeTable, 'suffolk_satisfaction_recording'>): string {
  const cents = fees.suffolk_satisfaction_recording.cents;
  const pages = (cents - SUFFOLK_CENTS_PER_DOCUMENT) / SUFFOLK_CENTS_PER_PAGE;
  if (!Number.isInteger(pages) || pages < 2) return "the site's amount (the clerk charges $5 a page plus $40)";
  const fewer = (cents - SUFFOLK_CENTS_PER_PAGE) / 100;
  return `figured for a ${pages}-page satisfaction at $5 a page plus $40 (${pages - 1} pages: $${fewer})`;
}
