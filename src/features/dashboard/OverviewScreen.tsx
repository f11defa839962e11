import { useQuery } from '@tanstack/react-query';
import AccountFrame from '../accounts/AccountFrame.tsx';
import { getJson } from '../accounts/account-query.ts';
import type { SessionAgent } from '../auth/auth-schemas.ts';
import { useFubIntegration } from '../crm/fub-query.ts';
import { OVERVIEW_TIME_ZONE, overviewResponseSchema, type Activity, type Overview } from './overview.ts';
import { ProfileBanner } from './ProfileBanner.tsx';
import { WeeklyChart } from './WeeklyChart.tsx';

/** /dashboard: the agent's overview. */
export default function OverviewScreen() {
  return (
    <AccountFrame area="dashboard" current="/dashboard">
      {(agent) => <OverviewBody agent={agent} />}
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
      <QuickActions slug={agent.slug} />
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

const count = new Intl.NumberFormat('en-US');

function Figures({ overview }: { overview: Overview }) {
  const stats = [
    { label: 'Leads', value: count.format(overview.leads_total) },
    { label: 'Estimates', value: count.format(overview.estimates_total) },
    { label: 'Leads this month', value: count.format(overview.leads_this_month) },
    {
      label: 'Conversion',
      value: overview.conversion_percent === null ? '—' : `${overview.conversion_percent.toFixed(1)}%`,
    },
  ];
  return (
    <>
      <ul className="plain-list stat-cards" aria-label="Your figures">
        {stats.map((stat) => (
          <li key={stat.label} className="card">
            <span className="stat-label">{stat.label}</span>
            <span className="stat-figure">{stat.value}</span>
          </li>
        ))}
      </ul>
      <section className="card overview-section" aria-labelledby="weekly-title">
        <h2 id="weekly-title">Last 12 weeks</h2>
        <WeeklyChart weeks={overview.weeks} />
      </section>
      <section className="card overview-section" aria-labelledby="activity-title">
        <h2 id="activity-title">Recent activity</h2>
        <ActivityList activities={overview.activities} />
      </section>
    </>
  );
}

const when = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: OVERVIEW_TIME_ZONE,
});

const TYPE_WORDS: Record<Activity['type'], string> = { estimate: 'Estimate', lead: 'Lead', other: 'E-mail' };

function ActivityList({ activities }: { activities: Activity[] }) {
  if (activities.length === 0) return <p className="empty-state">No recent activity</p>;
  return (
    <ol className="plain-list activity-list">
      {activities.map((activity, index) => (
        <li key={`${activity.timestamp}-${index}`} className={`activity activity-${activity.type}`}>
          <span className="activity-type">{TYPE_WORDS[activity.type]}</span>
          <span className="activity-message">{activity.message}</span>
          <time dateTime={activity.timestamp}>{when.format(new Date(activity.timestamp))}</time>
        </li>
      ))}
    </ol>
  );
}

function QuickActions({ slug }: { slug: string }) {
  return (
    <nav className="card overview-section" aria-labelledby="quick-actions-title">
      <h2 id="quick-actions-title">Quick actions</h2>
      <ul className="plain-list quick-actions">
        <li>
          <a className="button button-primary" href={`/r/${slug}`}>
            View My Calculator
          </a>
        </li>
        <li>
          <a className="button button-secondary" href="/dashboard/settings">
            My Settings
          </a>
        </li>
        <li>
          <a className="button button-secondary" href="/dashboard/leads">
            My Leads
          </a>
        </li>
        <li>
          <a className="button button-secondary" href="/dashboard/integrations">
            Integrations
          </a>
        </li>
      </ul>
    </nav>
  );
}
