import { useEffect, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';

/** Calls `onCommitted` once its page has hydrated and the page's own effects have run. */
function Committed({ children, onCommitted }: { children: ReactNode; onCommitted: () => void }) {
  useEffect(() => onCommitted(), [onCommitted]);
  return children;
}

/** Hydrates a light island (see light-island.ts) with `page`, the element the server rendered. */
export function hydrateIsland(container: HTMLElement, page: ReactNode, onCommitted: () => void): void {
  hydrateRoot(container, <Committed onCommitted={onCommitted}>{page}</Committed>);
}
