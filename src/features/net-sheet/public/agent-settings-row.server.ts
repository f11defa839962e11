/**
 * An agent's calculator defaults as a stored row reads (agent_settings): the columns a query selects
 * and the settings they make, the system defaults where the agent set none. New estimates and net
 * sheets start from these; the settings screen's routes (src/features/settings) answer them.
 */
import { centsToDollars } from '../../../ui/money.ts';
import { SYSTEM_DEFAULTS } from './estimate.ts';
import { NET_SHEET_DEFAULTS, splitCommission, type AgentSettings } from './agent-settings.ts';

export interface SettingsRow {
  default_attorney_fee_cents: number | null;
  default_recording_fee_cents: number | null;
  transfer_tax_rate_per_1000: number | null;
  default_commission_percent: number | null;
  default_listing_percent: number | null;
  default_buyer_agent_percent: number | null;
  default_days_to_closing: number | null;
  default_title_closer_pickup: boolean | null;
  default_payoff_bank_attorney: boolean | null;
  default_rp5217_on_seller: boolean | null;
}

export const SETTINGS_COLUMNS = [
  'default_attorney_fee_cents',
  'default_recording_fee_cents',
  'transfer_tax_rate_per_1000',
  'default_commission_percent',
  'default_listing_percent',
  'default_buyer_agent_percent',
  'default_days_to_closing',
  'default_title_closer_pickup',
  'default_payoff_bank_attorney',
  'default_rp5217_on_seller',
]
  .map((column) => `s.${column}`)
  .join(', ');

/** The agent's values, the system defaults where they have none (as new estimates use them). */
export const toSettings = (row: SettingsRow): AgentSettings => {
  const commission = row.default_commission_percent ?? SYSTEM_DEFAULTS.commissionPercent;
  const split = splitCommission(commission);
  return {
    default_attorney_fee: centsToDollars(row.default_attorney_fee_cents ?? SYSTEM_DEFAULTS.attorneyFeeCents),
    default_recording_fee: centsToDollars(row.default_recording_fee_cents ?? SYSTEM_DEFAULTS.recordingFeeCents),
    transfer_tax_rate_per_1000: row.transfer_tax_rate_per_1000 ?? SYSTEM_DEFAULTS.transferTaxRatePer1000,
    default_commission_percent: commission,
    default_listing_percent: row.default_listing_percent ?? split.listing,
    default_buyer_agent_percent: row.default_buyer_agent_percent ?? split.buyerAgent,
    default_days_to_closing: row.default_days_to_closing ?? NET_SHEET_DEFAULTS.daysToClosing,
    default_title_closer_pickup: row.default_title_closer_pickup ?? NET_SHEET_DEFAULTS.titleCloserPickup,
    default_payoff_bank_attorney: row.default_payoff_bank_attorney ?? NET_SHEET_DEFAULTS.payoffBankAttorney,
    default_rp5217_on_seller: row.default_rp5217_on_seller ?? NET_SHEET_DEFAULTS.rp5217OnSeller,
  };
};
