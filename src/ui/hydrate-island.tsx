import { useLayoutEffect, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

/**
 * Calls `onCommitted` as soon as its page has hydrated: before anything can render the page's
 * fields again with the values React holds, which would wipe what the visitor typed meanwhile.
 */
function Committed({ children, onCommitted }: { children: ReactNode; onCommitted: () => void }) {
  useLayoutEffect(() => onCommitted(), [onCommitted]);
  return children;
}

/**
 * Hydrates a light island (see light-island.ts) with `page`, the element the server rendered it with;
 * an island the server did not render (`rendered` false: the shell as built) is rendered afresh.
 */
export function hydrateIsland(
  container: HTMLElement,
  page: ReactNode,
  { rendered, onCommitted }: { rendered: boolean; onCommitted: () => void },
): void {
  const committed = <Committed onCommitted={onCommitted}>{page}</Committed>;
  if (rendered) hydrateRoot(container, committed);
  else createRoot(container).render(committed);
}
