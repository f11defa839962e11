import { describe, expect, it } from 'vitest';
import { DatabaseUnavailable, whenConnectionDrops } from './db.ts';

/** A unit of work that fails with `errors` in turn, then answers 'stored'; counts its calls. */
function failing(...errors: Error[]) {
  let calls = 0;
  return {
    get calls() {
      return calls;
    },
    work: () => {
      const error = errors[calls];
      calls += 1;
      return error ? Promise.reject(error) : Promise.resolve('stored');
    },
  };
}

const noPause = () => Promise.resolve();

describe('whenConnectionDrops', () => {
  it('repeats work whose connection dropped, pausing longer before each repeat', async () => {
    const waits: number[] = [];
    const dropped = () => new DatabaseUnavailable('Connection terminated unexpectedly');
    const unit = failing(dropped(), dropped(), dropped());
    await expect(
      whenConnectionDrops(unit.work, (ms) => {
        waits.push(ms);
        return Promise.resolve();
      }),
    ).resolves.toBe('stored');
    expect(unit.calls).toBe(4);
    expect(waits).toEqual([20, 80, 320]);
  });

  it('gives up after four attempts with the last drop', async () => {
    const last = new DatabaseUnavailable('the fourth');
    const unit = failing(
      new DatabaseUnavailable('1'),
      new DatabaseUnavailable('2'),
      new DatabaseUnavailable('3'),
      last,
    );
    await expect(whenConnectionDrops(unit.work, noPause)).rejects.toBe(last);
    expect(unit.calls).toBe(4);
  });

  it('never repeats a failure that is not the connection', async () => {
    const refused = new Error('duplicate key value violates unique constraint');
    const unit = failing(refused);
    await expect(whenConnectionDrops(unit.work, noPause)).rejects.toBe(refused);
    expect(unit.calls).toBe(1);
  });
});
