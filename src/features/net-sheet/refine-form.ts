/**
 * The refine form's state and the details it sends, both ways: what the inputs hold (text, as the
 * seller types it) from the estimate's stored details, and the details object the API receives from
 * the inputs. netSheetDetailsSchema (details.ts) stays the one judge of the values: this module only
 * leaves out what the seller left empty, so an empty field means the agent's default.
 */
import type { Estimate } from './public/estimate-request.ts';
import { storedDetailsSchema, type NetSheetDetails } from './details.ts';
import type { SheetDefaultsAnswer } from './public/sheet-answer.ts';
import { peconicTownOf } from './peconic-tax.ts';

export const MAX_LIENS = 4;
export const MAX_OTHER_LINES = 20;

export interface LienDraft {
  label: string;
  payoff: string;
  per_diem_interest: string;
  payoff_date: string;
}

export interface HalvesDraft {
  annual: string;
  first_half_paid: boolean;
  second_half_paid: boolean;
}

export type Switch = 'title_closer_pickup' | 'payoff_bank_attorney' | 'seller_pays_rp5217';

export interface RefineDraft {
  listing_commission_percent: string;
  buyer_agent_percent: string;
  seller_concessions: string;
  attorney_fee: string;
  liens: LienDraft[];
  closing_date: string;
  county: '' | 'Nassau' | 'Suffolk';
  town: string;
  /** East End only: vacant land has the lower Peconic Bay tax exemption (the note's figure). */
  vacant_land: boolean;
  suffolk_lots: string;
  nassau_lots: string;
  nassau_blocks: string;
  property_type: '' | 'house' | 'condo' | 'coop';
  flip_tax: FlipTaxDraft;
  switches: Record<Switch, boolean>;
  nassau_school: HalvesDraft;
  nassau_general: HalvesDraft;
  suffolk: HalvesDraft;
  village: { annual: string; fiscal_year_start_month: string; paid: boolean };
  other_lines: OtherLineDraft[];
  final_water_bill: string;
  withholding: WithholdingDraft;
}

/** Taxes taken at closing (withholding.ts): what the seller says applies; off for most sellers. */
export interface WithholdingDraft {
  foreign_seller: boolean;
  buyer_residence: boolean;
  nonresident_seller: boolean;
  cost_basis: string;
  principal_residence: boolean;
  buyer_exempt_from_mansion_tax: boolean;
}

/** A co-op's flip tax: none, or how its bylaws figure it and the numbers that takes. */
export interface FlipTaxDraft {
  basis: '' | 'price' | 'profit' | 'shares';
  percent: string;
  purchase_price: string;
  dollars_per_share: string;
  shares: string;
}

const emptyFlipTax = (): FlipTaxDraft => ({
  basis: '',
  percent: '',
  purchase_price: '',
  dollars_per_share: '',
  shares: '',
});

/** A line the seller adds: its size in dollars or in percent of the price, a cost or a credit. */
export interface OtherLineDraft {
  name: string;
  amount: string;
  unit: 'dollars' | 'percent';
  credit: boolean;
}

export const emptyOtherLine = (): OtherLineDraft => ({ name: '', amount: '', unit: 'dollars', credit: false });

/** New York villages start their fiscal year on June 1 unless they chose otherwise. */
export const VILLAGE_FISCAL_START_MONTH = 6;

export const emptyLien = (): LienDraft => ({ label: '', payoff: '', per_diem_interest: '', payoff_date: '' });
const emptyHalves = (): HalvesDraft => ({ annual: '', first_half_paid: false, second_half_paid: false });

/** Cents as a seller would type them: "450,000" or "1,234.50". */
export function dollarsText(cents: number): string {
  const fraction = cents % 100 === 0 ? 0 : 2;
  return (cents / 100).toLocaleString('en-US', { minimumFractionDigits: fraction, maximumFractionDigits: fraction });
}

const optionalDollars = (cents: number | undefined) => (cents === undefined ? '' : dollarsText(cents));
const optionalNumber = (value: number | undefined) => (value === undefined ? '' : String(value));

const halvesDraft = (halves: { annual: number; first_half_paid: boolean; second_half_paid: boolean } | undefined) =>
  halves
    ? {
        annual: dollarsText(halves.annual),
        first_half_paid: halves.first_half_paid,
        second_half_paid: halves.second_half_paid,
      }
    : emptyHalves();

/**
 * The form for an estimate: its stored details when it has them (as the API gave them back), else
 * the estimate's mortgage payoff as the first lien, so the seller adds to what the sheet shows.
 */
export function draftFrom(
  estimate: Pick<Estimate, 'mortgage_payoff'>,
  storedDetails: Record<string, unknown> | null,
  defaults: SheetDefaultsAnswer,
): RefineDraft {
  const parsed = storedDetails ? storedDetailsSchema.safeParse(storedDetails) : undefined;
  const details: Partial<NetSheetDetails> = parsed?.success ? parsed.data : {};
  const taxes = details.property_taxes;
  const quickLien =
    estimate.mortgage_payoff > 0
      ? [{ ...emptyLien(), label: 'Mortgage', payoff: dollarsText(Math.round(estimate.mortgage_payoff * 100)) }]
      : [];
  return {
    listing_commission_percent: optionalNumber(details.listing_commission_percent),
    buyer_agent_percent: optionalNumber(details.buyer_agent_percent),
    seller_concessions: optionalDollars(details.seller_concessions),
    attorney_fee: optionalDollars(details.attorney_fee),
    liens: details.liens?.length
      ? details.liens.map((lien) => ({
          label: lien.label,
          payoff: dollarsText(lien.payoff),
          per_diem_interest: optionalDollars(lien.per_diem_interest),
          payoff_date: lien.payoff_date ?? '',
        }))
      : quickLien,
    closing_date: details.closing_date ?? '',
    county: details.county ?? '',
    town: details.town ?? '',
    vacant_land: details.vacant_land ?? false,
    // The schema fills in 1 lot when none was sent: shown as the hint, not as a typed value.
    suffolk_lots: details.suffolk_lots && details.suffolk_lots > 1 ? String(details.suffolk_lots) : '',
    nassau_lots: optionalNumber(details.nassau_lots),
    nassau_blocks: optionalNumber(details.nassau_blocks),
    property_type: details.property_type ?? '',
    flip_tax: details.flip_tax
      ? {
          basis: details.flip_tax.basis,
          percent: optionalNumber(details.flip_tax.percent),
          purchase_price: optionalDollars(details.flip_tax.purchase_price),
          dollars_per_share: optionalDollars(details.flip_tax.dollars_per_share),
          shares: optionalNumber(details.flip_tax.shares),
        }
      : emptyFlipTax(),
    // A quick estimate's sheet has none of these fees: the form starts from its terms (decision 0037),
    // so refining it unchanged nets what it nets; the seller ticks what applies.
    switches: {
      title_closer_pickup: details.title_closer_pickup ?? (storedDetails !== null && defaults.title_closer_pickup),
      payoff_bank_attorney: details.payoff_bank_attorney ?? (storedDetails !== null && defaults.payoff_bank_attorney),
      seller_pays_rp5217: details.seller_pays_rp5217 ?? (storedDetails !== null && defaults.seller_pays_rp5217),
    },
    nassau_school: halvesDraft(taxes?.nassau_school),
    nassau_general: halvesDraft(taxes?.nassau_general),
    suffolk: halvesDraft(taxes?.suffolk),
    village: taxes?.village
      ? {
          annual: dollarsText(taxes.village.annual),
          fiscal_year_start_month: String(taxes.village.fiscal_year_start_month),
          paid: taxes.village.paid,
        }
      : { annual: '', fiscal_year_start_month: String(VILLAGE_FISCAL_START_MONTH), paid: false },
    final_water_bill: optionalDollars(details.final_water_bill),
    other_lines:
      details.other_lines?.map((line) => ({
        name: line.name,
        amount: line.percent === undefined ? optionalDollars(line.amount) : String(line.percent),
        unit: line.percent === undefined ? 'dollars' : 'percent',
        credit: line.credit,
      })) ?? [],
    withholding: {
      foreign_seller: details.foreign_seller !== undefined,
      buyer_residence: details.foreign_seller?.buyer_residence ?? false,
      nonresident_seller: details.nonresident_seller !== undefined,
      cost_basis: optionalDollars(details.nonresident_seller?.cost_basis),
      principal_residence: details.nonresident_seller?.principal_residence ?? false,
      buyer_exempt_from_mansion_tax: details.buyer_exempt_from_mansion_tax ?? false,
    },
  };
}

/** A typed number as a number, anything else as typed (the schema names what is wrong with it). */
function numberOrText(text: string): number | string {
  const trimmed = text.trim();
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** The fields the seller filled in, in the request's shape (undefined when empty: left out of the JSON). */
const filled = (text: string) => (text.trim() === '' ? undefined : text.trim());
const filledNumber = (text: string) => (text.trim() === '' ? undefined : numberOrText(text));
const isBlank = (row: Record<string, string>) => Object.values(row).every((value) => value.trim() === '');

const halvesDetails = (halves: HalvesDraft) =>
  filled(halves.annual) === undefined
    ? undefined
    : {
        annual: halves.annual.trim(),
        first_half_paid: halves.first_half_paid,
        second_half_paid: halves.second_half_paid,
      };

/**
 * The `details` of POST /api/estimates from the form: empty fields and blank rows left out, the
 * switches sent only where they differ from the agent's default, each county's taxes only for that
 * county (the others would not count).
 */
export function detailsFrom(draft: RefineDraft, defaults: SheetDefaultsAnswer): Record<string, unknown> {
  const liens = draft.liens
    .filter((lien) => !isBlank({ ...lien }))
    .map((lien) => ({
      label: lien.label.trim(),
      payoff: lien.payoff.trim(),
      per_diem_interest: filled(lien.per_diem_interest),
      payoff_date: filled(lien.payoff_date),
    }));
  const otherLines = draft.other_lines
    .filter((line) => !isBlank({ name: line.name, amount: line.amount }))
    .map((line) =>
      withoutUndefined({
        name: line.name.trim(),
        ...(line.unit === 'percent' ? { percent: filledNumber(line.amount) } : { amount: filled(line.amount) }),
        credit: line.credit ? true : undefined,
      }),
    );
  const county = draft.county === '' ? undefined : draft.county;
  const coop = draft.property_type === 'coop';
  // A co-op owner gets no tax bill (the maintenance carries the building's): nothing to prorate.
  const taxes = {
    nassau_school: county === 'Nassau' && !coop ? halvesDetails(draft.nassau_school) : undefined,
    nassau_general: county === 'Nassau' && !coop ? halvesDetails(draft.nassau_general) : undefined,
    suffolk: county === 'Suffolk' && !coop ? halvesDetails(draft.suffolk) : undefined,
    village:
      coop || filled(draft.village.annual) === undefined
        ? undefined
        : {
            annual: draft.village.annual.trim(),
            fiscal_year_start_month: numberOrText(draft.village.fiscal_year_start_month),
            paid: draft.village.paid,
          },
  };
  const changed = (key: Switch) => (draft.switches[key] === defaults[key] ? undefined : draft.switches[key]);
  return withoutUndefined({
    listing_commission_percent: filledNumber(draft.listing_commission_percent),
    buyer_agent_percent: filledNumber(draft.buyer_agent_percent),
    seller_concessions: filled(draft.seller_concessions),
    attorney_fee: filled(draft.attorney_fee),
    liens: liens.length > 0 ? liens.map(withoutUndefined) : undefined,
    closing_date: filled(draft.closing_date),
    county,
    town: filled(draft.town),
    vacant_land: draft.vacant_land && peconicTownOf(draft.town) !== undefined ? true : undefined,
    // A co-op records nothing: its lots would not count.
    suffolk_lots: county === 'Suffolk' && !coop ? filledNumber(draft.suffolk_lots) : undefined,
    nassau_lots: county === 'Nassau' && !coop ? filledNumber(draft.nassau_lots) : undefined,
    nassau_blocks: county === 'Nassau' && !coop ? filledNumber(draft.nassau_blocks) : undefined,
    property_type: draft.property_type === '' ? undefined : draft.property_type,
    // Only what the chosen basis uses, and only for a co-op (any other sale has none).
    flip_tax:
      draft.property_type === 'coop' && draft.flip_tax.basis !== ''
        ? withoutUndefined({
            basis: draft.flip_tax.basis,
            percent: draft.flip_tax.basis === 'shares' ? undefined : filledNumber(draft.flip_tax.percent),
            purchase_price: draft.flip_tax.basis === 'profit' ? filled(draft.flip_tax.purchase_price) : undefined,
            dollars_per_share: draft.flip_tax.basis === 'shares' ? filled(draft.flip_tax.dollars_per_share) : undefined,
            shares: draft.flip_tax.basis === 'shares' ? filledNumber(draft.flip_tax.shares) : undefined,
          })
        : undefined,
    title_closer_pickup: changed('title_closer_pickup'),
    payoff_bank_attorney: changed('payoff_bank_attorney'),
    // A co-op has no deed and no RP-5217.
    seller_pays_rp5217: coop ? undefined : changed('seller_pays_rp5217'),
    property_taxes: Object.values(taxes).some(Boolean) ? withoutUndefined(taxes) : undefined,
    final_water_bill: filled(draft.final_water_bill),
    other_lines: otherLines.length > 0 ? otherLines : undefined,
    ...withholdingDetails(draft.withholding),
  });
}

/** Each only when ticked; a principal residence sends no cost basis (the sheet would not use it). */
function withholdingDetails(draft: WithholdingDraft): Record<string, unknown> {
  return withoutUndefined({
    foreign_seller: draft.foreign_seller ? { buyer_residence: draft.buyer_residence } : undefined,
    nonresident_seller: draft.nonresident_seller
      ? withoutUndefined({
          cost_basis: draft.principal_residence ? undefined : filled(draft.cost_basis),
          principal_residence: draft.principal_residence,
        })
      : undefined,
    buyer_exempt_from_mansion_tax: draft.buyer_exempt_from_mansion_tax ? true : undefined,
  });
}

/** The object without its undefined entries: the strict schema and the stored details see only what was given. */
function withoutUndefined<T extends Record<string, unknown>>(object: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

/** An error key of the API's answer ("details.liens.0.payoff") as the form's field key ("liens.0.payoff"). */
export const formFieldKey = (apiKey: string): string => apiKey.replace(/^details\./, '');
