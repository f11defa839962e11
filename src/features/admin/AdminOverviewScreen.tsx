import { useQuery } from '@tanstack/react-query';
import AccountFrame from '../accounts/public/AccountFrame.tsx';
import { getJson } from '../accounts/public/account-query.ts';
import {
  ActivitySection,
  formatConversion,
  formatCount,
  QuickActions,
  StatCards,
  WeeklySection,
} from '../dashboard/public/OverviewParts.tsx';
import { SiteBuildCard } from '../site-build/public/SiteBuildCard.tsx';
import { adminActivityResponseSchema, adminOverviewResponseSchema, type AdminOverview } from './admin-overview.ts';

/** /admin: the whole site's figures, its recent activity and the way to the other admin screens. */
export default function AdminOverviewScreen() {
  return (
    <AccountFrame area="admin" current="/admin">
      {() => <AdminOverviewBody />}
    </AccountFrame>
  );
}

const fetchOverview = async () => (await getJson('/api/admin/overview', adminOverviewResponseSchema)).overview;
const fetchActivity = async () => (await getJson('/api/admin/activity', adminActivityResponseSchema)).activities;

function AdminOverviewBody() {
  const overview = useQuery({ queryKey: ['admin-overview'], queryFn: fetchOverview });
  const activity = useQuery({ queryKey: ['admin-activity'], queryFn: fetchActivity });
  return (
    <div className="overview">
      <h1>Admin overview</h1>
      {overview.isPending ? <p aria-live="polite">Loading the site’s figures…</p> : null}
      {overview.isError ? (
        <Failed message="Failed to load the site’s figures." retry={() => void overview.refetch()} />
      ) : null}
      {overview.data ? <Figures overview={overview.data} /> : null}
      {/* After the figures arrive, not before: shown under "Loading…", the cards below jumped down
          when the figures came (a layout shift of 0.43 in Lighthouse, issue 23). */}
      {overview.isPending ? null : (
        <>
          <SiteBuildCard />
          <ActivitySection activities={activity.data}>
            {activity.isError ? (
              <Failed message="Failed to load the recent activity." retry={() => void activity.refetch()} />
            ) : (
              <p aria-live="polite">Loading the recent activity…</p>
            )}
          </ActivitySection>
          <QuickActions
            links={[
              { href: '/admin/agents', label: 'Manage Agents' },
              { href: '/admin/leads', label: 'All Leads' },
              { href: '/admin/settings', label: 'Site Settings' },
            ]}
          />
        </>
      )}
    </div>
  );
}

function Failed({ message, retry }: { message: string; retry: () => void }) {
  return (
    <div className="account-card">
      <p role="alert">{message}</p>
      <button type="button" className="button button-primary" onClick={retry}>
        Retry
      </button>
    </div>
  );
}

function Figures({ overview }: { overview: AdminOverview }) {
  return (
    <>
      <StatCards
        label="Site figures"
        stats={[
          { label: 'Total Leads', value: formatCount(overview.leads_total) },
          { label: 'Estimates Created', value: formatCount(overview.estimates_total) },
          { label: 'Active Agents', value: formatCount(overview.active_agents) },
          { label: 'Conversion Rate', value: formatConversion(overview.conversion_percent) },
        ]}
      />
      <WeeklySection weeks={overview.weeks} />
    </>
  );
}
