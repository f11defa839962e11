import { publicAgentSchema } from '../accounts/public/public-agent.ts';
import { hydrateIsland } from '../../ui/hydrate-island.tsx';
import type { IslandModule } from '../../ui/light-island.ts';
import AgentCalculatorPage from './AgentCalculatorPage.tsx';

/** /r/{slug}, loaded on intent (src/pages/r/index.astro). */
export const hydrate: IslandModule['hydrate'] = (container, data, onCommitted) =>
  hydrateIsland(
    container,
    <AgentCalculatorPage agent={data === undefined ? undefined : publicAgentSchema.parse(data)} />,
    {
      rendered: data !== undefined,
      onCommitted,
    },
  );
