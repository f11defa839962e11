import { describe, expect, it } from 'vitest';
import { tabAfterKey } from './tabs.ts';

describe('tabAfterKey', () => {
  it('steps with the arrows and wraps around at both ends', () => {
    expect([0, 1, 2].map((current) => tabAfterKey('ArrowRight', current, 3))).toEqual([1, 2, 0]);
    expect([0, 1, 2].map((current) => tabAfterKey('ArrowLeft', current, 3))).toEqual([2, 0, 1]);
  });

  it('jumps to the first and last tab with Home and End', () => {
    expect([tabAfterKey('Home', 1, 3), tabAfterKey('End', 1, 3)]).toEqual([0, 2]);
  });

  it('leaves every other key to the browser', () => {
    expect(['Tab', 'Enter', ' ', 'ArrowDown', 'a'].map((key) => tabAfterKey(key, 0, 2))).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });
});
