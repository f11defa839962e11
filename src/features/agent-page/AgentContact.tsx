import { formatPhone, telHref } from '../../ui/phone.ts';
import type { PublicAgentResponse } from '../accounts/public/public-agent.ts';

/** How to reach the agent, below the calculator. */
export function AgentContact({ agent }: { agent: PublicAgentResponse['agent'] }) {
  return (
    <section className="agent-contact" aria-labelledby="agent-contact">
      <h2 id="agent-contact">Contact {agent.first_name}</h2>
      <ul>
        <li>
          <a href={`mailto:${agent.email}`}>{agent.email}</a>
        </li>
        {agent.phone ? (
          <li>
            <a href={telHref(agent.phone)}>{formatPhone(agent.phone)}</a>
          </li>
        ) : null}
        {agent.license_number ? <li>License #{agent.license_number}</li> : null}
        {agent.website ? (
          <li>
            <a href={agent.website} rel="noopener">
              {agent.website.replace(/^https?:\/\//, '')}
            </a>
          </li>
        ) : null}
        {agent.brokerage_street ? (
          <li>
            {agent.brokerage_street}, {agent.brokerage_city}, {agent.brokerage_state} {agent.brokerage_zip}
          </li>
        ) : null}
      </ul>
    </section>
  );
}
