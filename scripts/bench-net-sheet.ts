// npm run bench:net-sheet — the net sheet engine in-process (no server): the reverse solve and a
// 41-point range per call, median and p99 in µs, with computeEstimate timed in the same run as the
// baseline. Target: well under 1 ms per call.
import { computeEstimate } from '../src/features/net-sheet/public/estimate.ts';
import { netSheetDetailsSchema } from '../src/features/net-sheet/details.ts';
import { defaultFeeTable } from '../src/features/net-sheet/fee-table-schema.ts';
import { netRange, rangePrices } from '../src/features/net-sheet/range.ts';
import { solveReverse } from '../src/features/net-sheet/reverse.ts';

const RUNS = 5_000;
const fees = defaultFeeTable();
const options = { today: '2026-11-23' };
const quick = {
  mortgagePayoffCents: 450_000_00,
  commissionPercent: 6,
  transferTaxRatePer1000: 4,
  attorneyFeeCents: 750_00,
  recordingFeeCents: 175_00,
};
const sale = {
  listing_commission_percent: 3,
  buyer_agent_percent: 2.5,
  county: 'Nassau',
  closing_date: '2027-01-15',
  liens: [
    { label: 'Mortgage', payoff: 400_000, per_diem_interest: 55.25, payoff_date: '2026-11-30' },
    { label: 'HELOC', payoff: 20_000, per_diem_interest: 3.1, payoff_date: '2026-12-15' },
  ],
  // The lines issue 22 added: the seller's own attorney fee, a credit, a percent line, the water bill.
  attorney_fee: 2_000,
  final_water_bill: 180,
  other_lines: [
    { name: 'Fuel oil in the tank', amount: 1_200, credit: true },
    { name: 'Repair credit to the buyer', percent: 0.5 },
  ],
  property_taxes: {
    nassau_school: { annual: 9_000, first_half_paid: true },
    nassau_general: { annual: 4_000, first_half_paid: true, second_half_paid: true },
  },
};
const details = netSheetDetailsSchema.parse(sale);

// Issue 22 part W: the same sale with the step lines (FIRPTA 0/10/15 %, IT-2663 on the gain, the
// seller's mansion tax), which split the reverse solve's search at $300,000 and $1,000,000.
const withheld = netSheetDetailsSchema.parse({
  ...sale,
  foreign_seller: { buyer_residence: true },
  nonresident_seller: { cost_basis: 350_000 },
  buyer_exempt_from_mansion_tax: true,
});

function measure(name: string, call: (index: number) => void) {
  for (let index = 0; index < 500; index += 1) call(index); // warm-up
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const start = performance.now();
    call(index);
    times.push((performance.now() - start) * 1000);
  }
  times.sort((a, b) => a - b);
  const at = (fraction: number) => times[Math.min(times.length - 1, Math.floor(times.length * fraction))] ?? 0;
  return { name, median: at(0.5), p99: at(0.99) };
}

const baseline = measure('computeEstimate', (index) =>
  computeEstimate({ ...quick, salePriceCents: 780_200_00 + index }),
);
const results = [
  baseline,
  measure('solveReverse', (index) => solveReverse(300_000_00 + index * 100, quick, details, fees, options)),
  measure('netRange (41 points)', (index) =>
    netRange(rangePrices(780_200_00 + index * 100), quick, details, fees, options),
  ),
  measure('solveReverse + W', (index) => solveReverse(200_000_00 + index * 10_000, quick, withheld, fees, options)),
  measure('netRange (41) + W', (index) =>
    netRange(rangePrices(980_200_00 + index * 100), quick, withheld, fees, options),
  ),
];
for (const { name, median, p99 } of results) {
  console.log(
    `${name.padEnd(22)} median ${median.toFixed(2).padStart(8)} µs  p99 ${p99.toFixed(2).padStart(8)} µs  ` +
      `(× ${(median / baseline.median).toFixed(0)} of computeEstimate's median)`,
  );
}
