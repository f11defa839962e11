import { describe, expect, it } from 'vitest';
import { createBatcher } from './batcher.ts';

describe('createBatcher', () => {
  it('flushes calls made in the same turn together, in order, and each caller gets its own result', async () => {
    const flushes: number[][] = [];
    const double = createBatcher(async (items: number[]) => {
      flushes.push(items);
      return Promise.resolve(items.map((item) => item * 2));
    });
    const results = await Promise.all([double(1), double(2), double(3)]);
    expect(results).toEqual([2, 4, 6]);
    expect(flushes).toEqual([[1, 2, 3]]);
    expect(await double(4)).toBe(8);
    expect(flushes).toEqual([[1, 2, 3], [4]]);
  });

  it('splits batches at the maximum size', async () => {
    const sizes: number[] = [];
    const echo = createBatcher(async (items: number[]) => {
      sizes.push(items.length);
      return Promise.resolve(items);
    }, 2);
    expect(await Promise.all([1, 2, 3, 4, 5].map(echo))).toEqual([1, 2, 3, 4, 5]);
    expect(sizes).toEqual([2, 2, 1]);
  });

  it('rejects every caller of a failed flush', async () => {
    const failing = createBatcher((): Promise<number[]> => Promise.reject(new Error('database down')));
    const outcomes = await Promise.allSettled([failing(1), failing(2)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
  });

  it('rejects when the flush answers the wrong number of results', async () => {
    const short = createBatcher((items: number[]) => Promise.resolve(items.slice(1)));
    await expect(Promise.all([short(1), short(2)])).rejects.toThrow('returned 1 results for 2 items');
  });
});
