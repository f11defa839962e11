import { describe, expect, it } from 'vitest';
import { splitCommission } from './public/agent-settings.ts';

describe('splitCommission', () => {
  it.each([
    [6, 3, 3],
    [5.25, 2.63, 2.62],
    [5.5, 2.75, 2.75],
    [0.01, 0.01, 0],
    [0, 0, 0],
    [19.99, 10, 9.99],
  ])(
    'cuts %s %% into %s listing + %s buyer’s agent, the odd hundredth to the listing side',
    (total, listing, buyer) => {
      const split = splitCommission(total);
      expect(split).toEqual({ listing, buyerAgent: buyer });
      expect(Math.round(split.listing * 100) + Math.round(split.buyerAgent * 100)).toBe(Math.round(total * 100));
    },
  );
});
