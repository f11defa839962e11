/**
 * An asynchronous value made at its first call and kept (a module loaded on first use, what is built
 * from it); a failure is not kept, so the next call tries again. The synchronous kind, for `Intl`
 * formatters, is src/ui/on-first-use.ts. Decision 0026: what a cold start need not load waits here.
 */
export function onFirstCall<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    if (!made) {
      const making = make();
      made = making;
      making.catch(() => {
        if (made === making) made = undefined;
      });
    }
    return made;
  };
}
