import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { SessionAgent } from '../../auth/public/auth-schemas.ts';
import { createAccountQueryClient, isSignedOut } from './account-query.ts';
import { currentAgent, logout } from './account-api.ts';

export type Area = 'dashboard' | 'admin';

/** The screens of each area, in navigation order: each its own URL and static shell. */
export const SCREENS = {
  dashboard: [
    { path: '/dashboard', label: 'Overview' },
    { path: '/dashboard/leads', label: 'Leads' },
    { path: '/dashboard/updates', label: 'Updates' },
    { path: '/dashboard/embed', label: 'Embed' },
    { path: '/dashboard/profile', label: 'Profile' },
    { path: '/dashboard/settings', label: 'Settings' },
    { path: '/dashboard/integrations', label: 'Integrations' },
  ],
  admin: [
    { path: '/admin', label: 'Overview' },
    { path: '/admin/agents', label: 'Agents' },
    { path: '/admin/leads', label: 'Leads' },
    { path: '/admin/profile', label: 'Profile' },
    { path: '/admin/settings', label: 'Settings' },
    { path: '/admin/showcase', label: 'Showcase' },
    { path: '/admin/content', label: 'Site Content' },
    { path: '/admin/data', label: 'Market Data' },
  ],
} as const satisfies Record<Area, readonly { path: string; label: string }[]>;

export type ScreenPath = (typeof SCREENS)[Area][number]['path'];

const ADMIN_RETRY_MS = 1000;

/** Who may see an area: any signed-in agent for the dashboard, admins for /admin. */
const allowed = (area: Area, agent: SessionAgent): boolean => area === 'dashboard' || agent.is_admin;

/** Where the login form sends someone back to after signing in (see LoginForm). */
export const loginUrlFor = (path: string): string => `/auth?next=${encodeURIComponent(path)}`;

/**
 * The signed-in frame of /dashboard/* and /admin/*, shared by every screen of both areas: the
 * session check (the admin guard retries once after 1 s), signed-out visitors sent to /auth and
 * brought back after logging in, a signed-in agent told that /admin is for admins, and the header:
 * the agent's first name, the area's navigation, View Calculator or View Site, and Logout.
 * `children` renders the screen: with the signed-in agent, or with null while the session is checked
 * (the screen draws what does not depend on who is signed in; its requests start at once).
 */
export default function AccountFrame(props: {
  area: Area;
  current: ScreenPath;
  children: (agent: SessionAgent | null) => ReactNode;
}) {
  const [client] = useState(createAccountQueryClient);
  return (
    <QueryClientProvider client={client}>
      <Frame {...props} />
    </QueryClientProvider>
  );
}

function Frame({
  area,
  current,
  children,
}: {
  area: Area;
  current: ScreenPath;
  children: (agent: SessionAgent | null) => ReactNode;
}) {
  const me = useQuery({
    queryKey: ['me'],
    queryFn: currentAgent,
    // The admin guard asks once more after 1 s (a session cookie set a moment ago); the dashboard does not.
    retry: (failures) => area === 'admin' && failures < 1,
    retryDelay: ADMIN_RETRY_MS,
  });

  useEffect(() => {
    // A path the area does not have (served by its home's shell) shows, and is named, the home.
    if (window.location.pathname.replace(/\/$/, '') !== current) window.history.replaceState(null, '', current);
  }, [current]);

  const agent = me.data;
  const signedOut = me.isSuccess && agent === null;
  useEffect(() => {
    if (signedOut || isSignedOut(me.error)) window.location.assign(loginUrlFor(current));
  }, [signedOut, me.error, current]);

  if (signedOut) {
    // On the way to /auth: nothing of the screen (its own requests were refused too).
    return (
      <FrameLayout area={area} current={current} agent={null}>
        <p aria-live="polite">Loading…</p>
      </FrameLayout>
    );
  }
  if (me.isPending) {
    // The frame and the screen are drawn while the session is checked, so the pre-rendered page
    // (Astro renders this state at build time) paints the header, the screen's heading and what does
    // not depend on who is signed in before any script runs, and the screen's requests start beside
    // the session's; what needs the agent is held in place, hidden, so nothing moves when it arrives.
    return (
      <FrameLayout area={area} current={current} agent={null}>
        {children(null)}
      </FrameLayout>
    );
  }
  if (me.isError) {
    return (
      <section className="account-card">
        <p role="alert">We could not reach the server. Please try again.</p>
        <button type="button" className="button button-primary" onClick={() => void me.refetch()}>
          Retry
        </button>
      </section>
    );
  }
  if (!agent) return null;
  if (!allowed(area, agent)) {
    return (
      <section className="account-card">
        <h1>Admins only</h1>
        <p>
          You are signed in as <strong>{agent.first_name}</strong>, an agent, not an admin. The admin area is for site
          administrators.
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
  return (
    <FrameLayout area={area} current={current} agent={agent}>
      {children(agent)}
    </FrameLayout>
  );
}

/** The header and main of the frame; `agent` null while the session is checked. */
function FrameLayout({
  area,
  current,
  agent,
  children,
}: {
  area: Area;
  current: ScreenPath;
  agent: SessionAgent | null;
  children: ReactNode;
}) {
  const pending = agent === null;
  return (
    <div className="account-frame">
      <header className="account-frame-header">
        <p className="account-frame-name" data-pending={pending || undefined}>
          Signed in as <strong>{agent?.first_name}</strong>
        </p>
        <nav aria-label={area === 'admin' ? 'Admin' : 'Dashboard'} className="account-frame-nav">
          <ul className="plain-list">
            {SCREENS[area].map((screen) => (
              <li key={screen.path}>
                <a href={screen.path} aria-current={screen.path === current ? 'page' : undefined}>
                  {screen.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="nav-actions" data-pending={pending || undefined}>
          {area === 'admin' ? (
            <a className="button button-secondary" href="/">
              View Site
            </a>
          ) : (
            <a className="button button-secondary" href={agent ? `/r/${agent.slug}` : '/dashboard'}>
              View Calculator
            </a>
          )}
          {/* A quiet control: leaving is not the screen's main action. */}
          <button type="button" className="button button-quiet" onClick={() => void logout()}>
            Logout
          </button>
        </div>
      </header>
      <main id="main" className="account-frame-main">
        {children}
      </main>
    </div>
  );
}
