/**
 * The Long Island closing fees a seller pays per lien satisfied or per filing, as a site-wide table:
 * each fee with its researched default, the date it was checked and its source
 * (../shared/research/long-island-seller-costs.md, §3 and §4). County clerks change these (Nassau's
 * block fee was ruled excessive in 2025; its tax map fee went from $355 to $270 in 2023), so every
 * one is a setting the admin can correct, never a constant in the arithmetic.
 */
import * as z from 'zod/mini';

export type County = 'Nassau' | 'Suffolk';

export interface SiteFee {
  /** What the line is called on the net sheet and on the admin's fee table. */
  label: string;
  /** When the fee is charged, in the words of the settings screen. */
  per: 'lien' | 'lot' | 'sale' | 'lien and block' | 'lien and lot';
  /** Which county's sales it applies to (both when absent). */
  county?: County;
  /** Only for a co-op sale (decision 0039); absent: every sale but a co-op's where it is a recording. */
  coop?: true;
  /**
   * Not a charge: a figure of the buyer's East End Peconic Bay tax (an exemption or the price above which
   * there is none; peconic-tax.ts, decision 0041). The sheet's note shows it; no line charges it.
   */
  peconic?: true;
  cents: number;
  /** YYYY-MM-DD: when the amount was last checked against its source. */
  checked: string;
  source: string;
  /** How the amount is arrived at, where it is not a quoted fee (shown in the admin's fee table). */
  note?: string;
}

/** The date the research notes were compiled (each admin correction sets its own). */
const RESEARCHED = '2026-11-23';

const SUFFOLK_MORTGAGE_FEES =
  'https://www.suffolkcountyny.gov/Departments/CountyClerk/Recording/MortgageFeeSchedule.aspx';
/** The Suffolk County Clerk's allowance list of April 1, 2023, as a title agency republished it. */
const PECONIC_ALLOWANCES = 'https://cbtitlegroup.com/articles/suffolk-county-peconic-bay-tax-explainer';
const PECONIC_CHECKED = '2026-11-26';
const SUFFOLK_DEED_FEES = 'http://www.suffolkcountyny.gov/Departments/CountyClerk/Recording/DeedFeeSchedule.aspx';

export const LI_FEE_DEFAULTS = {
  nassau_satisfaction_recording: {
    label: 'Satisfaction recording (Nassau)',
    per: 'lien',
    county: 'Nassau',
    cents: 50_50,
    checked: RESEARCHED,
    source: 'https://lilifepolitics.com/news/politics/nassau-dems-call-to-slash-county-clerk-fees',
  },
  // Per block referenced by each satisfaction ("$300 (per block reference)", https://deeds.com/recorder/new-york/nassau).
  nassau_block_fee: {
    label: 'Block fee per satisfaction (Nassau)',
    per: 'lien and block',
    county: 'Nassau',
    cents: 300_00,
    checked: RESEARCHED,
    source: 'https://newsday.com/long-island/nassau/nassau-real-estate-transactions-ruling-wzjaqovy',
  },
  // For each section/block/lot a satisfaction is recorded against (the source below; decision 0039).
  nassau_tax_map_verification: {
    label: 'Tax map verification (Nassau)',
    per: 'lien and lot',
    county: 'Nassau',
    cents: 270_00,
    checked: RESEARCHED,
    source: 'https://www.abstractsinc.com/nassau-county-land-tax-map-verification-fee/',
  },
  suffolk_mortgage_verification: {
    label: 'Mortgage verification (Suffolk)',
    per: 'lien',
    county: 'Suffolk',
    cents: 300_00,
    checked: RESEARCHED,
    source: SUFFOLK_MORTGAGE_FEES,
  },
  suffolk_lot_verification: {
    label: 'Real property verification per lot (Suffolk)',
    per: 'lot',
    county: 'Suffolk',
    cents: 200_00,
    checked: RESEARCHED,
    source: SUFFOLK_DEED_FEES,
  },
  // The research puts a short one-lot satisfaction at about $550-600 in all ($300 + $200 + recording):
  // the recording part is arithmetic from the schedule, not a quoted figure (decision 0038).
  suffolk_satisfaction_recording: {
    label: 'Satisfaction recording (Suffolk)',
    per: 'lien',
    county: 'Suffolk',
    cents: 60_00,
    checked: RESEARCHED,
    source: SUFFOLK_MORTGAGE_FEES,
    note: 'Arithmetic from the page count, not a quoted fee: $5 a page plus $40 a document ($20 handling, $5 Commissioner of Education, $15 Cultural Education Fund). $60 is a 4-page satisfaction; 3 pages cost $55.',
  },
  tp584_filing: {
    label: 'TP-584 filing',
    per: 'sale',
    cents: 5_00,
    checked: RESEARCHED,
    source: SUFFOLK_DEED_FEES,
  },
  rp5217_filing: {
    label: 'RP-5217 filing (residential)',
    per: 'sale',
    cents: 125_00,
    checked: RESEARCHED,
    source: 'https://www.tax.ny.gov/research/property/assess/sales/deedevents.htm',
  },
  suffolk_ea5217: {
    label: 'EA-5217 county filing (Suffolk)',
    per: 'sale',
    county: 'Suffolk',
    cents: 5_00,
    checked: RESEARCHED,
    source: SUFFOLK_DEED_FEES,
  },
  title_closer_pickup: {
    label: 'Title closer pick-up fee',
    per: 'lien',
    cents: 250_00,
    checked: RESEARCHED,
    source: 'https://cuddyfeder.com/title-closer-tipping',
  },
  payoff_bank_attorney: {
    label: 'Payoff bank attorney fee',
    per: 'lien',
    cents: 450_00,
    checked: RESEARCHED,
    source: 'http://palazzo-law.com/residential-closing-costs.html',
  },
  // Co-op sales (research: docs/research/long-island-seller-credits-and-extras.md §5). The UCC-3
  // termination of the seller's share loan is a written UCC filing: $40 under 19 NYCRR 143-5.1.
  coop_ucc3_filing: {
    label: 'UCC-3 filing (co-op)',
    per: 'lien',
    coop: true,
    cents: 40_00,
    checked: '2026-11-26',
    source:
      'https://casetext.com/regulation/new-york-codes-rules-and-regulations/title-19-department-of-state/chapter-iii-administration/subchapter-d-uniform-commercial-code/part-143-standard-forms-and-procedures/subpart-143-5-fees/section-143-51-fees',
  },
  // Guides quote $500-$750 (and "$450+"): the low end of the range two of them give.
  coop_transfer_agent: {
    label: 'Co-op attorney / transfer agent fee',
    per: 'sale',
    coop: true,
    cents: 500_00,
    checked: '2026-11-26',
    source: 'https://dmvequityrealestate.com/?page_id=200',
  },
  coop_move_out_deposit: {
    label: 'Move-out deposit (co-op)',
    per: 'sale',
    coop: true,
    cents: 500_00,
    checked: '2026-11-26',
    source: 'https://williamjfarmer.com/blog/2016/closing-costs-co-ops',
  },
  // The buyer's Peconic Bay tax on the East End (docs/research/east-end-peconic-bay-tax.md, decision
  // 0041): the part of the price each town exempts since April 1, 2023, per the Suffolk County Clerk's
  // allowance list. Not seller costs: the sheet's East End note shows the buyer's tax with them.
  peconic_exemption_improved_south_fork: {
    label: 'Peconic Bay tax exemption, improved (East Hampton, Shelter Island, Southampton)',
    per: 'sale',
    county: 'Suffolk',
    peconic: true,
    cents: 400_000_00,
    checked: PECONIC_CHECKED,
    source: PECONIC_ALLOWANCES,
    note: "The buyer's tax is on the price above this, for a house or other improved property; none above the price ceiling below.",
  },
  peconic_exemption_vacant_south_fork: {
    label: 'Peconic Bay tax exemption, vacant land (East Hampton, Shelter Island, Southampton)',
    per: 'sale',
    county: 'Suffolk',
    peconic: true,
    cents: 100_000_00,
    checked: PECONIC_CHECKED,
    source: 'https://southamptontownny.gov/FAQ.aspx?QID=338',
  },
  peconic_exemption_improved_southold: {
    label: 'Peconic Bay tax exemption, improved (Southold)',
    per: 'sale',
    county: 'Suffolk',
    peconic: true,
    cents: 200_000_00,
    checked: PECONIC_CHECKED,
    source: 'http://southoldtownny.gov/FAQ.aspx?QID=156',
    note: 'The town’s own page says $200,000; one realtor’s $250,000 is not borne out by the town or the County Clerk.',
  },
  peconic_exemption_vacant_southold: {
    label: 'Peconic Bay tax exemption, vacant land (Southold)',
    per: 'sale',
    county: 'Suffolk',
    peconic: true,
    cents: 75_000_00,
    checked: PECONIC_CHECKED,
    source: 'http://southoldtownny.gov/FAQ.aspx?QID=156',
  },
  peconic_exemption_improved_riverhead: {
    label: 'Peconic Bay tax exemption, improved (Riverhead)',
    per: 'sale',
    county: 'Suffolk',
    peconic: true,
    cents: 150_000_00,
    checked: PECONIC_CHECKED,
    source: PECONIC_ALLOWANCES,
    note: 'Riverhead did not adopt the Community Housing Fund: its 1998 exemptions stand, at every price.',
  },
  peconic_exemption_vacant_riverhead: {
    label: 'Peconic Bay tax exemption, vacant land (Riverhead)',
    per: 'sale',
    county: 'Suffolk',
    peconic: true,
    cents: 75_000_00,
    checked: PECONIC_CHECKED,
    source: PECONIC_ALLOWANCES,
  },
  peconic_exemption_ceiling: {
    label: 'Peconic Bay tax: no exemption above this price (not Riverhead)',
    per: 'sale',
    county: 'Suffolk',
    peconic: true,
    cents: 2_000_000_00,
    checked: PECONIC_CHECKED,
    source:
      'https://www.advantagetitle.com/bulletins/2023-03-changes-to-the-peconic-bay-tax-effective-april-1-2023.html',
    note: 'In the four Community Housing Fund towns a price above this is taxed whole; at this price or below the exemption applies (sources differ on the price itself: decision 0041).',
  },
} as const satisfies Record<string, SiteFee>;

export type FeeKey = keyof typeof LI_FEE_DEFAULTS;

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
export const FEE_KEYS = Object.keys(LI_FEE_DEFAULTS).filter((key): key is FeeKey => key in LI_FEE_DEFAULTS);

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

/**
 * A rate the sheet applies to a price (a percent, not dollars), kept like a fee: its researched
 * default, the date it was checked and its source, editable in the admin's fee table (decision 0041).
 */
export interface SiteRate {
  label: string;
  /** Where the admin's table lists it (its heading). */
  section: 'east_end' | 'withholding' | 'penalties';
  /** What the rate is applied to, as the admin's table labels it: IT-2663's rate is on the gain, not the price. */
  base: 'price' | 'gain' | 'overdue_half';
  /**
   * The most an admin may set, where more would break an argument the code rests on (the reverse
   * solve's bound on what one more dollar of price can cost, reverse.ts); 100 otherwise.
   */
  max?: number;
  /** 0-100, up to 4 decimals. */
  percent: number;
  /** YYYY-MM-DD. */
  checked: string;
  source: string;
  note?: string;
}

// The buyer's Peconic Bay taxes on the East End (docs/research/east-end-peconic-bay-tax.md).
export const LI_RATE_DEFAULTS = {
  peconic_cpf_rate: {
    label: 'Peconic Bay Community Preservation Fund tax (buyer, East End)',
    section: 'east_end',
    base: 'price',
    percent: 2,
    checked: PECONIC_CHECKED,
    source: 'https://southamptontownny.gov/FAQ.aspx?QID=338',
    note: 'Tax Law §1449-bb: in East Hampton, Riverhead, Shelter Island, Southampton and Southold, on the price above the exemption. Paid by the buyer.',
  },
  peconic_chf_rate: {
    label: 'Community Housing Fund tax (buyer; not Riverhead)',
    section: 'east_end',
    base: 'price',
    percent: 0.5,
    checked: PECONIC_CHECKED,
    source: 'https://ehamptonny.gov/838/More-Community-Housing-Fund-Information',
    note: 'Adopted by referendum in East Hampton, Shelter Island, Southampton and Southold; collected since April 1, 2023, on the same taxable price as the 2%.',
  },
  // Withholding and the seller's mansion tax (docs/research/withholding-and-mansion-tax.md; decision 0042).
  // FIRPTA and IT-2663 are bounded at 15 % and the mansion tax at 1 %: the reverse solve's exactness rests on it.
  firpta_rate: {
    label: 'FIRPTA withholding',
    section: 'withholding',
    base: 'price',
    max: 15,
    percent: 15,
    checked: '2026-11-26',
    source: 'https://www.irs.gov/individuals/international-taxpayers/firpta-withholding',
    note: 'Of the amount realized (generally the price), IRC §1445(a).',
  },
  firpta_residence_rate: {
    label: "FIRPTA withholding, buyer's residence",
    section: 'withholding',
    base: 'price',
    max: 15,
    percent: 10,
    checked: '2026-11-26',
    source: 'https://www.irs.gov/individuals/international-taxpayers/exceptions-from-firpta-withholding',
    note: 'When the buyer will live there and the amount realized is over $300,000 and not over $1,000,000.',
  },
  nys_nonresident_estimated_tax_rate: {
    label: 'NY nonresident estimated tax (IT-2663)',
    section: 'withholding',
    base: 'gain',
    max: 15,
    percent: 10.9,
    checked: '2026-11-26',
    source: 'https://www.tax.ny.gov/pit/estimated_tax/how_to_estimate.htm',
    note: "The top rate of Tax Law §601 (10.90 % over $25,000,000), which the form's worksheet line 19 prints.",
  },
  mansion_tax_rate: {
    label: 'Mansion tax',
    section: 'withholding',
    base: 'price',
    max: 1,
    percent: 1,
    checked: '2026-11-26',
    source: 'https://www.nysenate.gov/legislation/laws/TAX/1402-A',
  },
  // Penalties on an overdue tax half (docs/research/tax-penalties.md; decision 0043).
  penalty_nassau_monthly: {
    label: 'Nassau late school or general tax half, per month from the due month',
    section: 'penalties',
    base: 'overdue_half',
    percent: 1,
    checked: '2026-11-26',
    source: 'https://www.hempsteadny.gov/431/Tax-Penalties',
    note: 'Oyster Bay Receiver: "a one percent penalty is added for each month the tax remains unpaid, retroactive to" the due date, after the 40-day window',
  },
  penalty_suffolk_first_half_monthly: {
    label: 'Suffolk late 1st half, per month or part after January 10',
    section: 'penalties',
    base: 'overdue_half',
    percent: 1,
    checked: '2026-11-26',
    source: 'https://islipny.gov/departments/receiver-of-taxes/late-delinquent',
    note: 'Suffolk County Tax Act §13; Brookhaven and Huntington Receivers publish the same 1-5 % schedule',
  },
  penalty_suffolk_comptroller_penalty: {
    label: 'Suffolk tax unpaid after May 31: Comptroller penalty',
    section: 'penalties',
    base: 'overdue_half',
    percent: 5,
    checked: '2026-11-26',
    source: 'https://nysenate.gov/legislation/laws/SCT/13-A',
    note: 'Brookhaven Receiver FAQ: "a 5% penalty is added together with interest at the rate of 1% per month calculated from February 1"',
  },
  penalty_suffolk_comptroller_monthly: {
    label: 'Suffolk tax unpaid after May 31: interest per month or part from February 1, on tax and penalty',
    section: 'penalties',
    base: 'overdue_half',
    percent: 1,
    checked: '2026-11-26',
    source: 'https://nysenate.gov/legislation/laws/SCT/13-C',
    note: 'One twelfth of a yearly rate that is never below 12 % (the 1-year Treasury index when higher)',
  },
} as const satisfies Record<string, SiteRate>;

export type RateKey = keyof typeof LI_RATE_DEFAULTS;
export const RATE_KEYS = Object.keys(LI_RATE_DEFAULTS).filter((key): key is RateKey => key in LI_RATE_DEFAULTS);

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
