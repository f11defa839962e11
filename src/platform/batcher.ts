/**
 * Groups calls that arrive in the same turn of the event loop into one flush: under load, many
 * concurrent requests share one database round trip; an idle server flushes each call alone on the
 * next turn, so nothing waits for company.
 */
export function createBatcher<Item, Result>(
  flush: (items: Item[]) => Promise<Result[]>,
  maxBatch = 100,
): (item: Item) => Promise<Result> {
  const pending: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];

  const run = () => {
    const batch = pending.splice(0, maxBatch);
    if (pending.length > 0) setImmediate(run);
    flush(batch.map((entry) => entry.item)).then(
      (results) => {
        batch.forEach((entry, index) => {
          const result = results[index];
          if (results.length === batch.length && result !== undefined) entry.resolve(result);
          else entry.reject(new Error(`Batch flush returned ${results.length} results for ${batch.length} items`));
        });
      },
      (error: unknown) => {
        for (const entry of batch) entry.reject(error);
      },
    );
  };

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      if (pending.length === 0) setImmediate(run);
      pending.push({ item, resolve, reject });
    });
}
