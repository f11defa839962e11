import type { PublicAgentResponse } from '../accounts/public/public-agent.ts';

/** What the page says when there is no calculator to show, by why. */
const NO_CALCULATOR = {
  missing: {
    heading: 'Agent Not Found',
    text: 'There is no calculator at this address. Check the link you were given.',
  },
  // 410: an admin made the agent inactive.
  unavailable: {
    heading: 'Calculator Not Available',
    text: 'This agent’s calculator is not available at the moment. You can still use the calculator on our home page.',
  },
  failed: {
    heading: 'Calculator unavailable',
    text: 'We could not load this calculator just now. Please try again in a moment.',
  },
} as const;

/** The static HTML: the heading and the form's outline, so nothing jumps when the agent loads. */
export function AgentPageLoading() {
  return (
    <div className="agent-page" aria-busy="true">
      <header className="agent-header">
        <div>
          <h1>Net to Seller Calculator</h1>
          <p className="field-hint">Loading your agent…</p>
        </div>
      </header>
      <div className="form skeleton-form" aria-hidden="true" />
    </div>
  );
}

/** No calculator at this address, or none now: why, and the way home. */
export function NoCalculator({ kind }: { kind: keyof typeof NO_CALCULATOR }) {
  const { heading, text } = NO_CALCULATOR[kind];
  return (
    <section className="agent-missing">
      <h1>{heading}</h1>
      <p>{text}</p>
      <a className="button button-primary" href="/">
        Go Home
      </a>
    </section>
  );
}

/** An agent whose page still lacks what a seller needs. */
export function CalculatorComingSoon({ agent }: { agent: PublicAgentResponse['agent'] }) {
  const fullName = `${agent.first_name} ${agent.last_name}`;
  return (
    <section className="agent-missing">
      <h1>Coming Soon</h1>
      <p>{fullName}'s calculator is being set up.</p>
      <a className="button button-primary" href={`mailto:${agent.email}`}>
        E-mail {agent.first_name}
      </a>
    </section>
  );
}
