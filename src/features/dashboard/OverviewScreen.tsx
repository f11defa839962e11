import { useQuery } from '@tanstack/react-query';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { getJson } from '../accounts/public/account-query.ts';
import type { SessionAgent } from '../auth/public/auth-schemas.ts';
import { useFubIntegration } from '../crm/public/fub-query.ts';
import { overviewResponseSchema, type Overview } from './public/overview.ts';
import {
  ActivitySection,
  formatConversion,
  formatCount,
  QuickActions,
  StatCards,
  WeeklySection,
} from './public/OverviewParts.tsx';
import { ProfileBanner } from '../agents/public/ProfileBanner.tsx';

/** /dashboard: the agent's overview. */
export default function OverviewScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard">
      {(agent) =>
        agent ? (
          <OverviewBody agent={agent} />
        ) : (
          // While the session is checked: the heading and the wait, in the pre-rendered page.
          <div className="overview">
            <h1>Overview</h1>
            <p aria-live="polite">Loading your figures…</p>
          </div>
        )
      }
    </AccountFrame>
  );
}

const fetchOverview = async () => (await getJson('/api/agents/me/overview', overviewResponseSchema)).overview;

function OverviewBody({ agent }: { agent: SessionAgent }) {
  const overview = useQuery({ queryKey: ['overview'], queryFn: fetchOverview });
  return (
    <div className="overview">
      <ProfileBanner agent={agent} />
      <CrmAttention />
      <h1>Overview</h1>
      {overview.isPending ? <p aria-live="polite">Loading your figures…</p> : null}
      {overview.isError ? (
        <div className="account-card">
          <p role="alert">Failed to load your overview.</p>
          <button type="button" className="button button-primary" onClick={() => void overview.refetch()}>
            Retry
          </button>
        </div>
      ) : null}
      {overview.data ? <Figures overview={overview.data} /> : null}
      {/* After the figures arrive, not before: shown under "Loading…", the links jumped down when
          the figures came (a layout shift of 0.27 in Lighthouse, issue 23). */}
      {overview.isPending ? null : (
        <QuickActions
          links={[
            { href: `/r/${agent.slug}`, label: 'View My Calculator' },
            { href: '/dashboard/settings', label: 'My Settings' },
            { href: '/dashboard/leads', label: 'My Leads' },
            { href: '/dashboard/integrations', label: 'Integrations' },
          ]}
        />
      )}
    </div>
  );
}

/**
 * Follow Up Boss refused the agent's key, so new leads wait: said here until a working key is
 * saved. Its own query (the integrations card's), so the overview's stays as it is.
 */
function CrmAttention() {
  const integration = useFubIntegration();
  if (!integration.data?.attention) return null;
  return (
    <section className="notice-warning profile-banner" aria-labelledby="crm-attention-title">
      <h2 id="crm-attention-title">Follow Up Boss needs attention</h2>
      <p>
        {integration.data.attention} New leads are not being sent to Follow Up Boss until you save a working API key.
      </p>
      <div className="nav-actions">
        <a className="button button-primary" href="/dashboard/integrations">
          Fix the Follow Up Boss connection
        </a>
      </div>
    </section>
  );
}

function Figures({ overview }: { overview: Overview }) {
  return (
    <>
      <StatCards
        label="Your figures"
        stats={[
          { label: 'Leads', value: formatCount(overview.leads_total) },
          { label: 'Estimates', value: formatCount(overview.estimates_total) },
          { label: 'Leads this month', value: formatCount(overview.leads_this_month) },
          { label: 'Conversion', value: formatConversion(overview.conversion_percent) },
        ]}
      />
      <WeeklySection weeks={overview.weeks} />
      <ActivitySection activities={overview.activities} />
    </>
  );
}
