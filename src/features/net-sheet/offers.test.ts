import { describe, expect, it } from 'vitest';
import { fees, options, quick, withoutPrice } from '../../../tests/support/net-sheet-examples.ts';
import { compareOffers } from './offers.ts';

describe('compareOffers', () => {
  it('marks the best net, and on a tie the earliest closing', () => {
    const rest = withoutPrice(quick(0));
    const offer = {
      price: 800_000_00,
      concessions: 0,
      buyer_agent_percent: 2,
      closing_date: '2027-02-01',
      financing: 'cash',
    } as const;
    const compared = compareOffers(
      [{ ...offer, concessions: 5_000_00 }, { ...offer, closing_date: '2027-03-01' }, offer],
      rest,
      undefined,
      fees,
      options,
    );
    expect(compared.map((entry) => entry.best)).toEqual([false, false, true]);
    expect(compared.map((entry) => entry.behind_best_cents)).toEqual([5_000_00, 0, 0]);
  });
});
