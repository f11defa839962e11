import { describe, expect, it } from 'vitest';
import { daysUntilNext, nextDueAfter, nextDueAfterClick } from './cadence.ts';

describe('cadence', () => {
  it('is monthly below three updates without a click, quarterly to six, then none', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(daysUntilNext)).toEqual([30, 30, 30, 90, 90, 90, null, null]);
  });

  it('dates the next update from the one sent', () => {
    const sent = new Date('2026-01-01T14:00:00Z');
    expect(nextDueAfter(sent, 1)?.toISOString()).toBe('2026-01-31T14:00:00.000Z');
    expect(nextDueAfter(sent, 3)?.toISOString()).toBe('2026-04-01T14:00:00.000Z');
    expect(nextDueAfter(sent, 6)).toBeNull();
  });

  it('after a click: monthly from the last update, never before the click', () => {
    const last = new Date('2026-01-01T00:00:00Z');
    expect(nextDueAfterClick(last, new Date('2026-01-10T00:00:00Z')).toISOString()).toBe('2026-01-31T00:00:00.000Z');
    expect(nextDueAfterClick(last, new Date('2026-06-10T00:00:00Z')).toISOString()).toBe('2026-06-10T00:00:00.000Z');
  });
});
