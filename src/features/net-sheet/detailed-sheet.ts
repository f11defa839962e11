/**
 * The detailed Long Island net sheet: the quick estimate refined by the seller's details, as signed
 * lines in integer cents (positive = a cost to the seller, negative = a credit). The net is minus the
 * sum of the lines. Each line is rounded once, half-up (commissions as in computeEstimate).
 */
import {
  buyerAgentCommissionLabel,
  commissionLabel,
  divideRoundHalfUp,
  formatPercent,
  hundredths,
  listingCommissionLabel,
  transferTaxRateText,
  type EstimateInputs,
} from './public/estimate.ts';
import type { NetSheetDetails } from './details.ts';
import { satisfactionRecordingBasis, type FeeTable } from './fee-table-schema.ts';
import { LI_FEE_DEFAULTS, type FeeKey } from './li-fees.ts';
import { overdueTaxWarnings, sheetWarnings, type SheetWarning } from './guard-rails.ts';
import { longDate } from './long-date.ts';
import { flipTaxCents, otherLineCents, priceLines } from './price-lines.ts';
import { dayNumber, prorations } from './proration.ts';
import type { SheetLine } from './sheet-line.ts';
import { notesFor, type SheetNote } from './sheet-notes.ts';
import { taxPenalties } from './tax-penalties.ts';
import { NET_SHEET_DEFAULTS } from './public/agent-settings.ts';
import { mansionTaxLine, sellingExpensesCents, withholdingLines, withholdingNotes } from './withholding.ts';

export interface DetailedSheet {
  lines: SheetLine[];
  net_cents: number;
  closing_date: string;
  notes: SheetNote[];
  /** What is legal but unusual (a past closing, large concessions): said, not refused (guard-rails.ts). */
  warnings: SheetWarning[];
}

export interface SheetOptions {
  /** YYYY-MM-DD. */
  today: string;
  /** The agent's settings for what the seller leaves out (see SheetDefaults). */
  defaults?: Partial<SheetDefaults>;
}

/** What an empty field of the details means for an agent (their settings, NET_SHEET_DEFAULTS where unset). */
export interface SheetDefaults {
  /** The commission's split when the seller gives no percentages (without one: all on the listing side). */
  listing_commission_percent: number;
  buyer_agent_percent: number;
  days_to_closing: number;
  title_closer_pickup: boolean;
  payoff_bank_attorney: boolean;
  seller_pays_rp5217: boolean;
}

export function addDays(iso: string, days: number): string {
  return new Date((dayNumber(iso) + days) * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The estimate's commission (quick.commissionPercent, the total the quick estimate charged) as its
 * two sides (decision 0037): the seller's percentages where given; a side the seller left empty is
 * its share of the total in the proportion of the agent's defaults (all of it on the listing side
 * without defaults). When the seller gives neither side the commission is ONE line at the total,
 * rounded once as the quick estimate rounds it (`combined`), so every view of the estimate nets
 * the same; changing one side (an offer's buyer's agent) charges the other side's share beside it.
 */
export function commissionSplit(
  quick: Pick<EstimateInputs, 'commissionPercent'>,
  details: NetSheetDetails | undefined,
  options: SheetOptions,
): { listingPercent: number; buyerPercent: number; combined: boolean } {
  const total = hundredths(quick.commissionPercent);
  const agentListing = hundredths(options.defaults?.listing_commission_percent ?? 0);
  const agentBuyer = hundredths(options.defaults?.buyer_agent_percent ?? 0);
  const listingShare =
    agentListing + agentBuyer === 0 ? total : divideRoundHalfUp(total * agentListing, agentListing + agentBuyer);
  const listing = details?.listing_commission_percent;
  const buyer = details?.buyer_agent_percent;
  return {
    listingPercent: listing ?? listingShare / 100,
    buyerPercent: buyer ?? (total - listingShare) / 100,
    combined: listing === undefined && buyer === undefined,
  };
}

const FLIP_TAX_WHY = {
  price: 'percent of the sale price',
  profit: 'percent of the profit over what the seller paid',
  shares: 'dollars per share',
} as const;

/**
 * Without details: the quick estimate's lines (sale price, payoff, commission, transfer tax, attorney,
 * recording), so the net equals computeEstimate's. With details and a county: the quick estimate's
 * single recording fee is REPLACED by the itemised county costs per lien and lot.
 */
export function computeDetailedSheet(
  quick: EstimateInputs,
  details: NetSheetDetails | undefined,
  fees: FeeTable,
  options: SheetOptions,
): DetailedSheet {
  const { listingPercent, buyerPercent, combined } = commissionSplit(quick, details, options);
  const closingDate =
    details?.closing_date ??
    addDays(options.today, options.defaults?.days_to_closing ?? NET_SHEET_DEFAULTS.daysToClosing);
  // Without details the sheet is the quick estimate: none of the per-lien extras apply.
  const extra = (chosen: boolean | undefined, agent: boolean | undefined, site: boolean) =>
    details !== undefined && (chosen ?? agent ?? site);
  const sellerPaysRp5217 = extra(
    details?.seller_pays_rp5217,
    options.defaults?.seller_pays_rp5217,
    NET_SHEET_DEFAULTS.rp5217OnSeller,
  );
  const liens = details?.liens?.length
    ? details.liens
    : quick.mortgagePayoffCents > 0
      ? [{ label: 'Mortgage', payoff: quick.mortgagePayoffCents, per_diem_interest: undefined, payoff_date: undefined }]
      : [];
  const { listing, buyer, transferTax } = priceLines(quick, listingPercent, buyerPercent, combined);

  const lines: SheetLine[] = [
    {
      key: 'sale_price',
      label: 'Sale price',
      amount_cents: -quick.salePriceCents,
      why: 'What the buyer pays',
      group: 'sale',
    },
    ...(combined
      ? [
          {
            key: 'commission',
            label: commissionLabel(quick.commissionPercent),
            amount_cents: listing,
            why: `Percent of the sale price: listing ${formatPercent(listingPercent)} + buyer's agent ${formatPercent(buyerPercent)}, as on the estimate`,
            group: 'commission' as const,
          },
        ]
      : [
          {
            key: 'listing_commission',
            label: listingCommissionLabel(listingPercent),
            amount_cents: listing,
            why: 'Percent of the sale price',
            group: 'commission' as const,
          },
          {
            key: 'buyer_agent_commission',
            label: buyerAgentCommissionLabel(buyerPercent),
            amount_cents: buyer,
            why: 'Percent of the sale price, if the seller agrees to pay it',
            group: 'commission' as const,
          },
        ]),
    {
      key: 'seller_concessions',
      label: 'Seller concessions',
      amount_cents: details?.seller_concessions ?? 0,
      why: 'Credits promised to the buyer',
      group: 'other',
    },
  ];
  liens.forEach((lien, index) => {
    lines.push({
      key: `lien_${index + 1}_payoff`,
      label: `${lien.label} payoff`,
      amount_cents: lien.payoff,
      why: 'Paid off at closing',
      group: 'payoff',
    });
    // Interest runs from the payoff letter's good-through date only: until then the monthly payments
    // pay it (audit M3). Without the date (details stored before it was required) nothing is charged.
    const days = lien.payoff_date ? Math.max(dayNumber(closingDate) - dayNumber(lien.payoff_date), 0) : 0;
    lines.push({
      key: `lien_${index + 1}_per_diem`,
      label: `${lien.label} interest to closing`,
      amount_cents: (lien.per_diem_interest ?? 0) * days,
      why: lien.payoff_date
        ? `${days} days of per-diem interest after the payoff letter's date, ${longDate(lien.payoff_date)}, closing day included`
        : 'No payoff date given: no per-diem interest charged',
      group: 'payoff',
    });
  });
  lines.push(
    {
      key: 'transfer_tax',
      label: 'NYS transfer tax',
      amount_cents: transferTax,
      why: transferTaxRateText(quick.transferTaxRatePer1000),
      group: 'tax',
    },
    ...mansionTaxLine(quick.salePriceCents, details, fees),
    {
      key: 'attorney_fee',
      label: 'Attorney fee',
      amount_cents: details?.attorney_fee ?? quick.attorneyFeeCents,
      why:
        details?.attorney_fee === undefined
          ? "The seller's attorney: the agent's usual fee (give your attorney's to replace it)"
          : "The seller's attorney, as the seller gave it",
      group: 'fee',
    },
  );

  /** A line of the fee table: its amount `count` times (per lien, per lot or once per sale). */
  const fee = (key: FeeKey, count: number, why: string) =>
    lines.push({ key, label: LI_FEE_DEFAULTS[key].label, amount_cents: fees[key].cents * count, why, group: 'fee' });
  const county = details?.county;
  if (details?.property_type === 'coop') {
    // No deed, no RP-5217, no satisfaction recorded: the share loan ends with a UCC-3 (research §5).
    fee('coop_ucc3_filing', liens.length, `${liens.length} × per share loan paid off (no recording for a co-op)`);
    fee('coop_transfer_agent', 1, "The co-op's attorney or managing agent, once per sale");
    fee('coop_move_out_deposit', 1, 'Often refundable when the building finds no damage');
    const flip = details.flip_tax;
    if (flip)
      lines.push({
        key: 'flip_tax',
        label: flip.basis === 'shares' ? 'Flip tax' : `Flip tax (${flip.percent ?? 0}%)`,
        amount_cents: flipTaxCents(quick.salePriceCents, details),
        why: `The co-op's transfer fee: ${FLIP_TAX_WHY[flip.basis]}`,
        group: 'fee',
      });
  } else if (!details || !county) {
    lines.push({
      key: 'recording_fee',
      label: 'Recording fee',
      amount_cents: quick.recordingFeeCents,
      why: 'One estimate for the recording costs (give the county to itemise them)',
      group: 'fee',
    });
  } else {
    const perLien = `${liens.length} × per lien satisfied (replaces the quick estimate's recording fee)`;
    if (county === 'Nassau') {
      fee('nassau_satisfaction_recording', liens.length, perLien);
      // Per block and per section/block/lot of each satisfaction (research: long-island-seller-credits-and-extras.md §4).
      const [blocks, lots] = [details.nassau_blocks ?? 1, details.nassau_lots ?? 1];
      fee(
        'nassau_block_fee',
        liens.length * blocks,
        blocks > 1 ? `${liens.length} lien(s) × ${blocks} blocks` : perLien,
      );
      fee(
        'nassau_tax_map_verification',
        liens.length * lots,
        lots > 1 ? `${liens.length} lien(s) × ${lots} lots` : perLien,
      );
    } else {
      fee('suffolk_mortgage_verification', liens.length, perLien);
      fee('suffolk_satisfaction_recording', liens.length, `${perLien}; ${satisfactionRecordingBasis(fees)}`);
      // Each satisfaction is verified against every lot of the property (research: ~$500 + recording for one lot).
      fee(
        'suffolk_lot_verification',
        liens.length * details.suffolk_lots,
        `${liens.length} lien(s) × ${details.suffolk_lots} lot(s)`,
      );
    }
    fee('tp584_filing', 1, 'Transfer tax return, once per sale');
    if (sellerPaysRp5217) {
      fee('rp5217_filing', 1, 'On the seller by the contract');
      if (county === 'Suffolk') fee('suffolk_ea5217', 1, 'Suffolk county filing with the RP-5217');
    }
  }
  const perLienSatisfied = `${liens.length} × per lien satisfied`;
  if (extra(details?.title_closer_pickup, options.defaults?.title_closer_pickup, NET_SHEET_DEFAULTS.titleCloserPickup))
    fee('title_closer_pickup', liens.length, perLienSatisfied);
  if (
    extra(details?.payoff_bank_attorney, options.defaults?.payoff_bank_attorney, NET_SHEET_DEFAULTS.payoffBankAttorney)
  )
    fee('payoff_bank_attorney', liens.length, perLienSatisfied);
  for (const proration of prorations(county, details?.property_taxes ?? {}, closingDate)) {
    lines.push({ ...proration, group: 'proration' });
  }
  // A half unpaid past its penalty-free window is paid at closing with its penalty (decision 0043).
  const penalties = taxPenalties(county, details?.property_taxes ?? {}, closingDate, fees);
  for (const { key, label, amount_cents, why } of penalties)
    lines.push({ key, label, amount_cents, why, group: 'proration' });
  if (details?.final_water_bill)
    lines.push({
      key: 'final_water_bill',
      label: 'Final water bill',
      amount_cents: details.final_water_bill,
      why: "The water district's final reading before closing, paid by the seller",
      group: 'other',
    });
  details?.other_lines?.forEach((line, index) =>
    lines.push({
      key: `other_${index + 1}`,
      label: line.percent === undefined ? line.name : `${line.name} (${line.percent}%)`,
      amount_cents: otherLineCents(quick.salePriceCents, line),
      why: [
        line.credit ? 'Added by the seller: paid to the seller at closing' : 'Added by the seller',
        ...(line.percent === undefined ? [] : ['percent of the sale price']),
      ].join(', '),
      group: 'other',
    }),
  );

  // Withholding last: IT-2663's gain is the price less the selling expenses of the lines above.
  const sellingExpenses = sellingExpensesCents(lines);
  lines.push(...withholdingLines(quick.salePriceCents, sellingExpenses, details, fees));
  const ownNotes = withholdingNotes(quick.salePriceCents, sellingExpenses, details, fees);
  // A line (or a note of withholding.ts) replaces the general note on the same subject: the buyer's
  // mansion tax when the seller pays it, "may be withheld" when the seller said which applies.
  const replaced = new Set([
    ...ownNotes.map((note) => note.key),
    ...(details?.buyer_exempt_from_mansion_tax ? ['mansion_tax', 'mansion_tax_cliff'] : []),
    ...(details?.foreign_seller ? ['firpta'] : []),
    ...(details?.nonresident_seller ? ['it2663'] : []),
  ]);
  const generalNotes = notesFor(quick.salePriceCents, details, fees).filter((note) => !replaced.has(note.key));
  const found = generalNotes.findIndex((note) => note.key === 'disclaimer');
  const disclaimerAt = found < 0 ? generalNotes.length : found;
  const notes = [...generalNotes.slice(0, disclaimerAt), ...ownNotes, ...generalNotes.slice(disclaimerAt)];

  const kept = lines.filter((line) => line.key === 'sale_price' || line.amount_cents !== 0);
  return {
    lines: kept,
    net_cents: -kept.reduce((sum, line) => sum + line.amount_cents, 0),
    closing_date: closingDate,
    notes,
    warnings: [
      ...sheetWarnings(quick.salePriceCents, details?.seller_concessions ?? 0, closingDate, options.today),
      ...overdueTaxWarnings(penalties),
    ],
  };
}
