/**
 * The Long Island closing fees a seller pays per lien satisfied or per filing, as a site-wide table:
 * each fee with its researched default, the date it was checked and its source
 * (../shared/research/long-island-seller-costs.md, §3 and §4). County clerks change these (Nassau's
 * block fee was ruled excessive in 2025; its tax map fee went from $355 to $270 in 2023), so every
 * one is a setting the admin can correct, never a constant in the arithmetic.
 */
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
export const PECONIC_CHECKED = '2026-11-26';
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
export const FEE_KEYS = Object.keys(LI_FEE_DEFAULTS).filter((key): key is FeeKey => key in LI_FEE_DEFAULTS);
