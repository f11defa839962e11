import { idInPath, LinkLoading, LinkMissing } from '../../ui/LinkStates.tsx';
import { useEffect, useState } from 'react';
import * as z from 'zod';
import { callApi } from '../../ui/api-client.ts';
import { Notice } from '../../ui/Notice.tsx';
import { copyLink } from '../../ui/clipboard.ts';
import { formatPhone } from '../../ui/phone.ts';
import { estimateSchema, UUID_PATTERN, type Estimate } from '../net-sheet/public/estimate-request.ts';
import { setCanonicalToCurrentUrl } from '../../ui/canonical.ts';
import { publicAgentSchema, type PublicAgentResponse } from '../accounts/public/public-agent.ts';
import { NetSheet } from '../net-sheet/public/NetSheet.tsx';
import { OffersPanel } from '../net-sheet/public/OffersPanel.tsx';
import { RangePanel } from '../net-sheet/public/RangePanel.tsx';
import { SendEstimateModal } from '../leads/public/SendEstimateModal.tsx';
import { DetailedSheet } from '../net-sheet/public/DetailedSheet.tsx';
import { RefineFormOnDemand } from '../net-sheet/public/RefineFormOnDemand.tsx';
import { rangeAnswerSchema, sheetAnswerSchema } from '../net-sheet/public/sheet-answer.ts';
import { optInMessage } from '../seller-updates/public/opt-in.ts';
import { LONG_ISLAND_TIME_ZONE } from '../../ui/long-island-time.ts';

const foundSchema = z.object({ success: z.literal(true), estimate: estimateSchema });

/** The day is Long Island's, on the server that renders the page and in every visitor's browser alike. */
const LONG_ISLAND = LONG_ISLAND_TIME_ZONE;

const SENT = 'Your estimate has been sent to your email!';

type SheetData = z.infer<typeof sheetAnswerSchema>;

type State =
  | { kind: 'loading' }
  | { kind: 'found'; estimate: Estimate; sheet: SheetData | null }
  | { kind: 'not-found' }
  | { kind: 'failed' };

/** What the page shows of a found estimate; the server renders the page with it (shell-pages.server.ts). */
export const estimatePageDataSchema = z.object({
  estimate: estimateSchema,
  sheet: sheetAnswerSchema.nullable(),
  /** The net at prices around the estimate's, in the range the page shows first. */
  range: rangeAnswerSchema,
  /** The estimate's agent, for the printed page (the screen shows the site's featured agent around it). */
  prepared_by: z.string().nullable(),
  /** The estimate's agent's name, for the send form's consent (newcomer audit minor 27). */
  agent_name: z.string().nullable().default(null),
});
export type EstimatePageData = z.infer<typeof estimatePageDataSchema>;

/** "Name · Brokerage · phone · e-mail" of the estimate's agent. */
export const preparedByLineOf = ({
  first_name,
  last_name,
  brokerage,
  phone,
  email,
}: PublicAgentResponse['agent']): string =>
  [`${first_name} ${last_name}`, brokerage, phone ? formatPhone(phone) : null, email].filter(Boolean).join(' · ');

/** The prepared-by line and the name of the agent of `slug`, or null when they cannot be read. */
async function preparedBy(slug: string): Promise<{ line: string; name: string } | null> {
  const found = await callApi(`/api/agents/public/${encodeURIComponent(slug)}`, publicAgentSchema);
  if (!found.ok) return null;
  const { agent } = found.data;
  return { line: preparedByLineOf(agent), name: `${agent.first_name} ${agent.last_name}` };
}

/**
 * /estimate/{uuid}: the shared estimate named in the URL. `data`: the estimate, when the page was
 * rendered with it; without it the page loads the estimate itself.
 */
export default function EstimatePage({ data }: { data?: EstimatePageData | undefined }) {
  const [state, setState] = useState<State>(
    data ? { kind: 'found', estimate: data.estimate, sheet: data.sheet } : { kind: 'loading' },
  );
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  /** After a send: the monthly updates' confirmation, said only when it was queued (issue 25). */
  const [updatesNote, setUpdatesNote] = useState<string | null>(null);
  // "Link copied", or the link to copy by hand where the clipboard is refused (audit M2).
  const [copied, setCopied] = useState<string | null>(null);
  const [refining, setRefining] = useState(false);
  const [agent, setAgent] = useState<{ line: string | null; name: string | null }>({
    line: data?.prepared_by ?? null,
    name: data?.agent_name ?? null,
  });

  useEffect(() => {
    setCanonicalToCurrentUrl();
    if (data) return;
    const uuid = idInPath();
    const valid = UUID_PATTERN.test(uuid);
    const lookup = valid
      ? callApi(`/api/estimates/${uuid}`, foundSchema)
      : Promise.resolve({ ok: false, status: 404 } as const);
    // Without its sheet the estimate still stands: the quick lines show and refining waits.
    const sheetLookup = valid ? callApi(`/api/estimates/${uuid}/sheet`, sheetAnswerSchema).catch(() => null) : null;
    Promise.all([lookup, sheetLookup])
      .then(([result, sheet]) => {
        if (!result.ok) {
          setState(result.status === 404 ? { kind: 'not-found' } : { kind: 'failed' });
          return;
        }
        setState({ kind: 'found', estimate: result.data.estimate, sheet: sheet?.ok ? sheet.data : null });
        // For the printed page only: without it the sheet still stands.
        preparedBy(result.data.estimate.agent_slug)
          .then((found) => setAgent({ line: found?.line ?? null, name: found?.name ?? null }))
          .catch(() => undefined);
      })
      .catch(() => setState({ kind: 'failed' }));
  }, [data]);

  if (state.kind === 'loading') {
    return <LinkLoading className="estimate-sheet" title="Your Net Sheet" message="Loading your estimate…" />;
  }
  if (state.kind === 'not-found' || state.kind === 'failed') {
    return (
      <LinkMissing
        kind={state.kind}
        titles={{ 'not-found': 'Estimate Not Found', failed: 'Failed to load estimate' }}
        messages={{
          'not-found': 'Estimate not found. The link may be mistyped, or the estimate may have been removed.',
          failed: 'We could not load this estimate just now. Please try again in a moment.',
        }}
      />
    );
  }
  const { estimate, sheet } = state;
  const refined = sheet?.details ? sheet : null;
  return (
    <section className="estimate-sheet">
      <h1>{estimate.recipient_name ? `Net Sheet for ${estimate.recipient_name}` : 'Your Net Sheet'}</h1>
      <p className="field-hint">
        Estimated on{' '}
        {new Date(estimate.created_at).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: LONG_ISLAND })}
      </p>
      {agent.line ? <p className="print-only">Prepared by {agent.line}</p> : null}
      {refined ? (
        <>
          <DetailedSheet sheet={refined.sheet} />
          <p className="note refined-note">
            This refined estimate has a link of its own: share this page’s address to show this sheet. Every earlier
            link keeps its own figures.
          </p>
        </>
      ) : (
        <NetSheet estimate={estimate} />
      )}
      {/* Above the buttons: where the visitor's eyes are when the modal closes and focus returns. */}
      <Notice tone="success" message={sent ? [SENT, updatesNote].filter(Boolean).join(' ') : copied} />
      <div className="modal-actions estimate-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() => {
            setSent(false);
            setSending(true);
          }}
        >
          Send this to my email
        </button>
        <a className="button button-secondary" href={`/api/estimates/${estimate.uuid}/pdf`} download>
          Download PDF
        </a>
        <button
          type="button"
          className="button button-secondary"
          onClick={() =>
            void copyLink(window.location.href.split('#')[0] ?? window.location.href, 'Link copied to clipboard!').then(
              setCopied,
            )
          }
        >
          Copy link
        </button>
        {sheet && !refining ? (
          <button type="button" className="button button-secondary" onClick={() => setRefining(true)}>
            Refine this estimate
          </button>
        ) : null}
        <a className="button button-secondary" href="/">
          Run another estimate
        </a>
      </div>
      {sheet && refining ? (
        <RefineFormOnDemand
          estimate={estimate}
          details={sheet.details}
          defaults={sheet.defaults}
          onCancel={() => setRefining(false)}
          // A new estimate with a link of its own: the seller lands on it, ready to share.
          onRefined={(made) => window.location.assign(`/estimate/${made.estimate.uuid}`)}
        />
      ) : null}
      <RangePanel uuid={estimate.uuid} salePrice={estimate.sale_price} firstPoints={data?.range.points} />
      <OffersPanel estimateUuid={estimate.uuid} terms={sheet?.terms ?? null} />
      <SendEstimateModal
        estimate={estimate}
        agentName={agent.name}
        homeTown={typeof sheet?.details?.town === 'string' ? sheet.details.town : null}
        open={sending}
        onClose={() => setSending(false)}
        onSent={(updates) => {
          setSending(false);
          setSent(true);
          setUpdatesNote(optInMessage(updates));
        }}
      />
    </section>
  );
}
