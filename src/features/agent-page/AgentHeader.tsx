import type { PublicAgentResponse } from '../accounts/public/public-agent.ts';

/** The agent's photo, name, brokerage and logo above the calculator, with the page's Share button. */
export function AgentHeader({ agent, onShare }: { agent: PublicAgentResponse['agent']; onShare: () => void }) {
  const fullName = `${agent.first_name} ${agent.last_name}`;
  return (
    <header className="agent-header">
      {agent.show_profile_photo && agent.profile_photo ? (
        <img className="agent-photo" src={agent.profile_photo} alt={fullName} width="96" height="96" />
      ) : null}
      <div>
        <h1>Net to Seller Calculator</h1>
        <p className="field-hint">
          {fullName}
          {agent.brokerage ? ` · ${agent.brokerage}` : ''}
        </p>
      </div>
      {agent.show_logo && agent.logo ? (
        <img className="agent-logo" src={agent.logo} alt={`${agent.brokerage ?? fullName} logo`} height="48" />
      ) : null}
      <button type="button" className="button button-secondary agent-share" onClick={onShare}>
        Share this page
      </button>
    </header>
  );
}
