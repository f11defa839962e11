import { useEffect, useState } from 'react';
import type { SessionAgent } from '../auth/auth-schemas.ts';
import { currentAgent, logout } from './account-api.ts';

type Area = 'dashboard' | 'admin';
type State =
  | { kind: 'checking' }
  | { kind: 'ready'; agent: SessionAgent }
  | { kind: 'not-admin'; agent: SessionAgent }
  | { kind: 'failed' };

const ADMIN_RETRY_MS = 1000;

/** Who may see an area: any signed-in agent for the dashboard, admins for /admin. */
const allowed = (area: Area, agent: SessionAgent | null): agent is SessionAgent =>
  agent !== null && (area === 'dashboard' || agent.is_admin);

/**
 * The signed-in frame of /dashboard and /admin: checks the session (the admin guard retries once
 * after 1 s), sends signed-out visitors to /auth, tells a signed-in agent who is not an admin so
 * (the login form would only send them back), and shows the agent's first name and Logout.
 */
export default function AccountShell({ area }: { area: Area }) {
  const [state, setState] = useState<State>({ kind: 'checking' });

  useEffect(() => {
    // Any other path under the area shows the area's home.
    if (window.location.pathname.replace(/\/$/, '') !== `/${area}`) window.history.replaceState(null, '', `/${area}`);
    const check = async (retriesLeft: number): Promise<void> => {
      let agent: SessionAgent | null = null;
      try {
        agent = await currentAgent();
      } catch {
        if (area === 'dashboard') return setState({ kind: 'failed' });
      }
      if (allowed(area, agent)) return setState({ kind: 'ready', agent });
      if (agent && retriesLeft === 0) return setState({ kind: 'not-admin', agent });
      if (area === 'admin' && retriesLeft > 0) {
        await new Promise((resolve) => window.setTimeout(resolve, ADMIN_RETRY_MS));
        return check(retriesLeft - 1);
      }
      window.location.assign('/auth');
    };
    void check(1);
  }, [area]);

  if (state.kind === 'checking') return <p aria-live="polite">Loading…</p>;
  if (state.kind === 'failed') {
    return (
      <section className="account-card">
        <p role="alert">We could not reach the server. Please try again.</p>
        <button type="button" className="button button-primary" onClick={() => window.location.reload()}>
          Retry
        </button>
      </section>
    );
  }
  if (state.kind === 'not-admin') {
    return (
      <section className="account-card">
        <h1>Admins only</h1>
        <p>
          You are signed in as <strong>{state.agent.first_name}</strong>, an agent, not an admin. The admin area is for
          site administrators.
        </p>
        <nav aria-label="Account" className="nav-actions">
          <a className="button button-primary" href="/dashboard">
            Go to your dashboard
          </a>
          <button type="button" className="button button-secondary" onClick={() => void logout()}>
            Logout
          </button>
        </nav>
      </section>
    );
  }
  const { agent } = state;
  return (
    <div className="account-shell">
      <header className="account-shell-header">
        <p>
          Signed in as <strong>{agent.first_name}</strong>
        </p>
        <nav aria-label={area === 'admin' ? 'Admin' : 'Dashboard'} className="nav-actions">
          {area === 'admin' ? (
            <a className="button button-secondary" href="/">
              View Site
            </a>
          ) : (
            <a className="button button-secondary" href={`/r/${agent.slug}`}>
              View Calculator
            </a>
          )}
          <button type="button" className="button button-primary" onClick={() => void logout()}>
            Logout
          </button>
        </nav>
      </header>
      <h1>{area === 'admin' ? 'Admin' : `Welcome, ${agent.first_name}`}</h1>
      {area === 'admin' ? (
        <p>Manage agents, e-mail sending, SEO, logos and showcase images here.</p>
      ) : (
        <p>
          Your calculator lives at <a href={`/r/${agent.slug}`}>/r/{agent.slug}</a>. Share it with sellers: every
          estimate they unlock becomes a lead for you.
        </p>
      )}
    </div>
  );
}
