import { describe, expect, it } from 'vitest';
import { resplitCommission } from './public/agent-settings.ts';

describe('a new total commission keeps the split in proportion (audit minor 11)', () => {
  it('keeps a 3 / 2 split as 60 / 40', () => {
    expect(resplitCommission(5.5, { listing: 3, buyerAgent: 2 })).toEqual({ listing: 3.3, buyerAgent: 2.2 });
    expect(resplitCommission(4, { listing: 3, buyerAgent: 2 })).toEqual({ listing: 2.4, buyerAgent: 1.6 });
  });

  it('adds up to the total in hundredths, whatever the rounding', () => {
    const { listing, buyerAgent } = resplitCommission(5.01, { listing: 1, buyerAgent: 2 });
    expect(listing).toBe(1.67);
    expect(Math.round(listing * 100) + Math.round(buyerAgent * 100)).toBe(501);
  });

  it('keeps a one-sided split one-sided, and halves a total with no split to follow', () => {
    expect(resplitCommission(5, { listing: 6, buyerAgent: 0 })).toEqual({ listing: 5, buyerAgent: 0 });
    expect(resplitCommission(5, { listing: 0, buyerAgent: 0 })).toEqual({ listing: 2.5, buyerAgent: 2.5 });
  });
});
