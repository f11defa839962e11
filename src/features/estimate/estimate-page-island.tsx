import { hydrateIsland } from '../../ui/hydrate-island.tsx';
import type { IslandModule } from '../../ui/light-island.ts';
import EstimatePage, { estimatePageDataSchema } from './EstimatePage.tsx';

/** /estimate/{uuid}, loaded on intent (src/pages/estimate/index.astro). */
export const hydrate: IslandModule['hydrate'] = (container, data, onCommitted) =>
  hydrateIsland(
    container,
    <EstimatePage data={data === undefined ? undefined : estimatePageDataSchema.parse(data)} />,
    {
      rendered: data !== undefined,
      onCommitted,
    },
  );
