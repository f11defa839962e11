/**
 * The seller's refinements of a quick estimate, as ONE schema shared by the API and the forms.
 * Every field is optional; the defaults are documented on each field and applied by
 * computeDetailedSheet (the closing date's default depends on `today`, which a schema cannot know).
 */
import * as z from 'zod/mini';
import { dollarAmount } from './amount.ts';
import { withoutLinks } from '../forms/public/text-fields.ts';

const hasAtMostTwoDecimals = (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6;

const percent = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .check(
      z.gte(0, `${label} cannot be negative`),
      z.lte(20, `${label} must be at most 20%`),
      z.refine(hasAtMostTwoDecimals, `${label} can have at most two decimals`),
    );

const dollars = (label: string) => dollarAmount(label, { minimumDollars: 0 });
const isoDate = (label: string) => z.iso.date({ error: `${label} must be a date (YYYY-MM-DD)` });
// A visitor's label: shown on the estimate page and the agent's notice, never a link (finding 2).
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is required`),
      z.maxLength(max, `${label} must be at most ${max} characters`),
      withoutLinks(label),
    );

const lienSchema = z.strictObject({
  label: text('Lien name', 100),
  payoff: dollars('Payoff'),
  /** Dollars per day; accrues from payoff_date (exclusive) to the closing date (inclusive). */
  per_diem_interest: z.optional(dollars('Per-diem interest')),
  /** The date the payoff letter's figure is good through; required with per_diem_interest (decision 0038). */
  payoff_date: z.optional(isoDate('Payoff date')),
});

/**
 * The most the seller's percent-based costs may add up to (peers' "fee as a percent": CalculaTR, Top
 * Producer). A flip tax, the largest such line on Long Island, runs 1-3 % (research §4); the bound
 * also keeps the reverse solve exact (reverse.ts).
 */
export const MAX_OTHER_PERCENT = 10;

/**
 * A line the seller adds: a cost (a repair, the final water bill) or, with `credit`, money the buyer
 * pays the seller at closing (the heating oil left in the tank). Its size is dollars or a percent of
 * the sale price, never both (decision 0039).
 */
const otherLineSchema = z
  .strictObject({
    name: text('Line name', 100),
    amount: z.optional(dollars('Amount')),
    /** Percent of the sale price, rounded to the cent half-up as the commissions are. */
    percent: z.optional(
      z
        .number({ error: 'Percent must be a number' })
        .check(
          z.gte(0, 'Percent cannot be negative'),
          z.lte(MAX_OTHER_PERCENT, `Percent must be at most ${MAX_OTHER_PERCENT}% of the price`),
          z.refine(hasAtMostTwoDecimals, 'Percent can have at most two decimals'),
        ),
    ),
    /** True: the buyer pays it to the seller (fuel oil in the tank). Default: a cost to the seller. */
    credit: z._default(z.boolean({ error: 'Credit must be true or false' }), false),
  })
  .check(
    z.superRefine((line, ctx) => {
      if ((line.amount === undefined) === (line.percent === undefined))
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message: 'Give either an amount in dollars or a percent of the price',
        });
    }),
  );

/** A co-op's flip tax, as its bylaws set it: a percent of the price or of the profit, or dollars per share. */
const flipTaxSchema = z
  .strictObject({
    basis: z.enum(['price', 'profit', 'shares'], { error: 'Choose how the flip tax is figured' }),
    /** For `price` and `profit`. */
    percent: z.optional(
      z
        .number({ error: 'Flip tax percent must be a number' })
        .check(
          z.gte(0, 'Flip tax percent cannot be negative'),
          z.lte(MAX_OTHER_PERCENT, `Flip tax percent must be at most ${MAX_OTHER_PERCENT}%`),
          z.refine(hasAtMostTwoDecimals, 'Flip tax percent can have at most two decimals'),
        ),
    ),
    /** For `profit`: what the seller paid for the shares. */
    purchase_price: z.optional(dollars('Purchase price')),
    /** For `shares`. */
    dollars_per_share: z.optional(dollars('Dollars per share')),
    shares: z.optional(
      z
        .number({ error: 'Shares must be a number' })
        .check(
          z.int('Shares must be a whole number'),
          z.gte(1, 'At least 1 share'),
          z.lte(1_000_000, 'At most 1,000,000 shares'),
        ),
    ),
  })
  .check(
    z.superRefine((flip, ctx) => {
      const need = (field: 'percent' | 'purchase_price' | 'dollars_per_share' | 'shares', message: string) => {
        if (flip[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message });
      };
      if (flip.basis !== 'shares') need('percent', 'Give the flip tax percent');
      if (flip.basis === 'profit') need('purchase_price', 'Give what you paid, to figure the profit');
      if (flip.basis === 'shares') {
        need('dollars_per_share', 'Give the dollars per share');
        need('shares', 'Give the number of shares');
      }
    }),
  );

const halves = { first_half_paid: z._default(z.boolean(), false), second_half_paid: z._default(z.boolean(), false) };

/**
 * The details' fields, each checked alone. Stored details are read back with this (storedDetailsSchema):
 * an estimate stored before a cross-field rule below still opens, with the sheet it was given.
 */
const detailsFieldsSchema = z.strictObject({
  /** Default: the agent's commission split as the caller's `defaults` say. */
  listing_commission_percent: z.optional(percent('Listing commission')),
  buyer_agent_percent: z.optional(percent("Buyer's agent commission")),
  /** Default $0. */
  seller_concessions: z.optional(dollars('Seller concessions')),
  /** The seller's own attorney's fee. Default: the agent's usual fee (the quick estimate's). */
  attorney_fee: z.optional(dollars('Attorney fee')),
  /** Default: the quick estimate's mortgage payoff as the only lien; the first lien replaces it. */
  liens: z.optional(z.array(lienSchema).check(z.maxLength(4, 'At most 4 liens'))),
  /** Default: today + the agent's days to closing (45 unless set). */
  closing_date: z.optional(isoDate('Closing date')),
  /**
   * Default a house (1-3 family; a condo has the same lines). A co-op has no deed, no RP-5217 and no
   * satisfaction to record: its share loan ends with a UCC-3, and the co-op's own fees apply (decision 0039).
   */
  property_type: z.optional(
    z.enum(['house', 'condo', 'coop'], { error: 'Property type must be house, condo or coop' }),
  ),
  /** A co-op's flip tax (only with property_type coop). Default none. */
  flip_tax: z.optional(flipTaxSchema),
  /** Default: unknown, and the quick estimate's single recording fee stays. */
  county: z.optional(z.enum(['Nassau', 'Suffolk'], { error: 'County must be Nassau or Suffolk' })),
  /** A town, village or hamlet: for the East End note only (peconic-tax.ts). */
  town: z.optional(text('Town', 100)),
  /** Vacant land has the lower East End exemption (for the note only). Default: improved property. */
  vacant_land: z.optional(z.boolean({ error: 'Vacant land must be true or false' })),
  suffolk_lots: z._default(
    z
      .number({ error: 'Lots must be a number' })
      .check(z.int('Lots must be a whole number'), z.gte(1, 'At least 1 lot'), z.lte(10, 'At most 10 lots')),
    1,
  ),
  /**
   * Nassau: the tax map verification is charged for each section/block/lot a satisfaction is recorded
   * against, the block fee for each block (research: long-island-seller-credits-and-extras.md §4).
   * Default 1 each.
   */
  nassau_lots: z.optional(
    z
      .number({ error: 'Lots must be a number' })
      .check(z.int('Lots must be a whole number'), z.gte(1, 'At least 1 lot'), z.lte(10, 'At most 10 lots')),
  ),
  nassau_blocks: z.optional(
    z
      .number({ error: 'Blocks must be a number' })
      .check(z.int('Blocks must be a whole number'), z.gte(1, 'At least 1 block'), z.lte(10, 'At most 10 blocks')),
  ),
  /** A contract term; by custom the buyer files it. Default: the agent's setting (off unless set). */
  seller_pays_rp5217: z.optional(z.boolean({ error: 'RP-5217 on the seller must be true or false' })),
  /** Per lien satisfied. Default: the agent's setting (on unless set). */
  title_closer_pickup: z.optional(z.boolean({ error: 'Title closer pick-up must be true or false' })),
  /** Per lien satisfied. Default: the agent's setting (off unless set). */
  payoff_bank_attorney: z.optional(z.boolean({ error: 'Payoff bank attorney fee must be true or false' })),
  /** Default: no proration (the attorney settles taxes at closing). */
  property_taxes: z.optional(
    z.strictObject({
      nassau_school: z.optional(z.strictObject({ annual: dollars('School tax'), ...halves })),
      nassau_general: z.optional(z.strictObject({ annual: dollars('General tax'), ...halves })),
      suffolk: z.optional(z.strictObject({ annual: dollars('Property tax'), ...halves })),
      village: z.optional(
        z.strictObject({
          annual: dollars('Village tax'),
          fiscal_year_start_month: z
            .number({ error: 'Month must be a number' })
            .check(z.int('Month must be 1-12'), z.gte(1, 'Month must be 1-12'), z.lte(12, 'Month must be 1-12')),
          paid: z._default(z.boolean(), false),
        }),
      ),
    }),
  ),
  /**
   * The bill of the final meter reading, which the seller pays (NY contract ¶18; research §6). Default none.
   */
  final_water_bill: z.optional(dollars('Final water bill')),
  /**
   * The seller is a foreign person (FIRPTA, decision 0042): the buyer withholds 15 % of the price, or
   * on a home the buyer will live in 0 % up to $300,000 and 10 % up to $1,000,000. Default: not foreign.
   */
  foreign_seller: z.optional(
    z.strictObject({
      buyer_residence: z._default(
        z.boolean({ error: 'Whether the buyer will live in the home must be true or false' }),
        false,
      ),
    }),
  ),
  /**
   * The seller is not a New York resident (IT-2663, decision 0042): estimated tax on the gain over the
   * cost basis (what was paid plus improvements and closing costs, less depreciation), or none when
   * the home fully qualifies as the seller's principal residence. Default: a resident.
   */
  nonresident_seller: z.optional(
    z.strictObject({
      cost_basis: z.optional(dollars('Cost basis')),
      principal_residence: z._default(z.boolean({ error: 'Principal residence must be true or false' }), false),
    }),
  ),
  /** The buyer is exempt from the mansion tax (a government body): the seller pays it (Tax Law §1402-a(b)). */
  buyer_exempt_from_mansion_tax: z.optional(
    z.boolean({ error: 'Buyer exempt from the mansion tax must be true or false' }),
  ),
  /** Repairs, CO cure, final water bill (costs); fuel oil in the tank (a credit). Default none. */
  other_lines: z.optional(
    z.array(otherLineSchema).check(
      z.maxLength(20, 'At most 20 other lines'),
      z.superRefine((lines, ctx) => {
        const costPercent = lines.reduce((sum, line) => sum + (line.credit ? 0 : (line.percent ?? 0)), 0);
        // A line over the bound on its own already says so under its field.
        const eachWithin = lines.every((line) => (line.percent ?? 0) <= MAX_OTHER_PERCENT);
        if (eachWithin && costPercent > MAX_OTHER_PERCENT + 1e-9)
          ctx.addIssue({
            code: 'custom',
            message: `Percent-based costs can add up to at most ${MAX_OTHER_PERCENT}% of the price`,
          });
      }),
    ),
  ),
});

/** The most per-diem interest a payoff can carry: 0.1 % of it a day (36.5 % a year; a mortgage is far below). */
const PER_DIEM_PER_PAYOFF = 1 / 1000;

/**
 * Every accepted input counts (issue 22, audit M5 and M3; decision 0038): a levy of the other county
 * (or of no county), lots outside Suffolk, the RP-5217 without a county (its fees are itemised with
 * the county's) and per-diem interest without the payoff letter's date would each be ignored or
 * guessed by the sheet, so the request is refused with the field to fix. A co-op's own rules
 * (decision 0039): a flip tax on a co-op only, no lots on a co-op, no more blocks than lots.
 */
export const netSheetDetailsSchema = detailsFieldsSchema.check(
  z.superRefine((details, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const taxes = details.property_taxes;
    const otherCounty = (levy: string, county: 'Nassau' | 'Suffolk') =>
      details.county
        ? `${levy} is a ${county} tax: leave it out for a ${details.county} home`
        : `${levy} is a ${county} tax: choose ${county} as the county`;
    if (details.county !== 'Nassau') {
      if (taxes?.nassau_school)
        issue(['property_taxes', 'nassau_school', 'annual'], otherCounty('School tax', 'Nassau'));
      if (taxes?.nassau_general)
        issue(['property_taxes', 'nassau_general', 'annual'], otherCounty('General tax', 'Nassau'));
    }
    if (details.county !== 'Suffolk' && taxes?.suffolk)
      issue(['property_taxes', 'suffolk', 'annual'], otherCounty('The Suffolk property tax', 'Suffolk'));
    if (details.county !== 'Suffolk' && details.suffolk_lots > 1)
      issue(['suffolk_lots'], 'Lots count in Suffolk only: choose Suffolk as the county, or leave lots empty');
    if (details.county === undefined && details.seller_pays_rp5217 === true)
      issue(['county'], 'Choose the county: the RP-5217 filing is charged with its closing fees');
    if (details.flip_tax && details.property_type !== 'coop')
      issue(['flip_tax'], 'A flip tax applies to a co-op sale only');
    if (details.property_type === 'coop' && (details.nassau_lots !== undefined || details.nassau_blocks !== undefined))
      issue(['nassau_lots'], 'A co-op records no satisfaction: no lots to verify');
    if (details.property_type === 'coop') {
      // A co-op owner gets no tax bill: the corporation pays the building's taxes and the maintenance
      // carries them, so there is nothing of the seller's to prorate (decision 0044); its lots and
      // RP-5217 would be ignored by the sheet's co-op lines (decision 0039).
      for (const levy of ['nassau_school', 'nassau_general', 'suffolk', 'village'] as const)
        if (taxes?.[levy])
          issue(
            ['property_taxes', levy, 'annual'],
            'A co-op owner gets no property tax bill: the co-op pays it from the maintenance. Leave property taxes empty for a co-op',
          );
      if (details.suffolk_lots > 1) issue(['suffolk_lots'], 'A co-op records no satisfaction: no lots to verify');
      if (details.seller_pays_rp5217 === true)
        issue(['seller_pays_rp5217'], 'A co-op has no deed and no RP-5217: leave it off for a co-op');
    }
    // A block holds one or more lots: more blocks than lots is a slip.
    if ((details.nassau_blocks ?? 1) > (details.nassau_lots ?? 1))
      issue(['nassau_blocks'], 'A property has no more blocks than lots');
    if (details.nonresident_seller?.principal_residence && details.nonresident_seller.cost_basis !== undefined)
      issue(
        ['nonresident_seller', 'cost_basis'],
        'A principal residence owes no New York estimated tax: leave the cost basis empty, or untick principal residence',
      );
    details.liens?.forEach((lien, index) => {
      if (lien.per_diem_interest === undefined || lien.per_diem_interest === 0) return;
      if (lien.payoff_date === undefined)
        issue(
          ['liens', index, 'payoff_date'],
          'Payoff good-through date is required with per-diem interest: it is on the payoff letter',
        );
      const most = Math.floor(lien.payoff * PER_DIEM_PER_PAYOFF);
      if (lien.per_diem_interest > most)
        issue(
          ['liens', index, 'per_diem_interest'],
          `Per-diem interest must be at most $${(most / 100).toFixed(2)} a day (0.1% of the payoff): check the payoff letter`,
        );
    });
  }),
);

/** Details as stored with an estimate: each field checked, not the rules above (see detailsFieldsSchema). */
export const storedDetailsSchema = detailsFieldsSchema;

export type NetSheetDetails = z.output<typeof netSheetDetailsSchema>;
