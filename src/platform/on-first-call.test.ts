import { describe, expect, it } from 'vitest';
import { onFirstCall } from './on-first-call.ts';

describe('onFirstCall', () => {
  it('makes the value once, however often and however concurrently it is asked for', async () => {
    let made = 0;
    const value = onFirstCall(() => Promise.resolve({ made: ++made }));
    const [first, second] = await Promise.all([value(), value()]);
    expect(first).toBe(second);
    expect(await value()).toBe(first);
    expect(made).toBe(1);
  });

  it('keeps no failure: the next call makes it again', async () => {
    let calls = 0;
    const value = onFirstCall(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error('a passing fault')) : Promise.resolve('made');
    });
    await expect(value()).rejects.toThrow('a passing fault');
    expect(await value()).toBe('made');
    expect(calls).toBe(2);
  });
});
