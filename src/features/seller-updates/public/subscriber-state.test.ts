import { describe, expect, it } from 'vitest';
import { SLOW_AFTER, STOP_AFTER } from './cadence.ts';
import { isStoredState, subscriberState } from './subscriber-state.ts';

describe('a subscription as the screens name it', () => {
  it('names a subscribed seller by their cadence: monthly, quarterly from 3 without a click, stopped (cold) from 6', () => {
    expect(
      [0, SLOW_AFTER - 1, SLOW_AFTER, STOP_AFTER - 1, STOP_AFTER, 9].map((n) => subscriberState('subscribed', n)),
    ).toEqual(['monthly', 'monthly', 'quarterly', 'quarterly', 'stopped', 'stopped']);
  });

  it('keeps the other states whatever the clicks', () => {
    expect(
      ['pending', 'paused', 'unsubscribed'].map((state) => (isStoredState(state) ? subscriberState(state, 7) : null)),
    ).toEqual(['pending', 'paused', 'unsubscribed']);
    expect(isStoredState('cold')).toBe(false);
  });
});
