/**
 * The rates the Long Island net sheet applies to a price or a gain (the East End's Peconic Bay taxes,
 * withholding at closing, late-payment penalties), kept like the fees of li-fees.ts: each with its
 * researched default, the date it was checked and its source, editable by the admin (decision 0041).
 */
import { PECONIC_CHECKED } from './li-fees.ts';

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
