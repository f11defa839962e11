/** The quick estimate, fee table and options the net sheet's unit tests compute their examples with. */
import type { EstimateInputs } from '../../src/features/net-sheet/public/estimate.ts';
import type { computeDetailedSheet } from '../../src/features/net-sheet/detailed-sheet.ts';
import { defaultFeeTable } from '../../src/features/net-sheet/fee-table-schema.ts';
import type { QuickWithoutPrice } from '../../src/features/net-sheet/reverse.ts';

export const fees = defaultFeeTable();
export const options = { today: '2026-11-23' };
export const quick = (salePriceCents: number): EstimateInputs => ({
  salePriceCents,
  mortgagePayoffCents: 450_000_00,
  commissionPercent: 6,
  transferTaxRatePer1000: 4,
  attorneyFeeCents: 750_00,
  recordingFeeCents: 175_00,
});
export const withoutPrice = (inputs: EstimateInputs): QuickWithoutPrice => ({
  mortgagePayoffCents: inputs.mortgagePayoffCents,
  commissionPercent: inputs.commissionPercent,
  transferTaxRatePer1000: inputs.transferTaxRatePer1000,
  attorneyFeeCents: inputs.attorneyFeeCents,
  recordingFeeCents: inputs.recordingFeeCents,
});
export const amount = (sheet: ReturnType<typeof computeDetailedSheet>, key: string) =>
  sheet.lines.find((line) => line.key === key)?.amount_cents;
