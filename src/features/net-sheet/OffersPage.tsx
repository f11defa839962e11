import { idInPath, LinkLoading, LinkMissing } from '../../ui/LinkStates.tsx';
import { useEffect, useState } from 'react';
import { callApi } from '../../ui/api-client.ts';
import { formatMoney } from '../../ui/money.ts';
import { Notice } from '../../ui/Notice.tsx';
import { UUID_PATTERN } from './public/estimate-request.ts';
import { formatPercent } from './public/estimate.ts';
import { copyLink } from '../../ui/clipboard.ts';
import { financingLabel } from './financing.ts';
import { DetailedSheet, longDate, SheetWarnings } from './public/DetailedSheet.tsx';
import { comparisonAnswerSchema, type ComparisonAnswer } from './public/sheet-answer.ts';
import './detailed-sheet.css';
import './offers.css';

type State =
  { kind: 'loading' } | { kind: 'found'; comparison: ComparisonAnswer } | { kind: 'not-found' } | { kind: 'failed' };

type ComparedOffer = ComparisonAnswer['offers'][number];

/** A net the seller would receive, or what they would bring to closing (a negative net). */
const netText = (net: number) => (net < 0 ? `${formatMoney(-net)} to bring to closing` : formatMoney(net));

function standing(offer: ComparedOffer, count: number): string {
  if (offer.best) return `The best net of the ${count} offers`;
  if (offer.behind_best === 0) return 'The same net as the best';
  return `${formatMoney(offer.behind_best)} less than the best`;
}

function OfferCard({ offer, index, count }: { offer: ComparedOffer; index: number; count: number }) {
  const headingId = `offer-${index + 1}`;
  return (
    <li className={`offer-card${offer.best ? ' is-best' : ''}`} aria-labelledby={headingId}>
      <h2 id={headingId}>
        Offer {index + 1}
        {offer.best ? <span className="badge badge-on offer-best-badge">Best net</span> : null}
      </h2>
      <dl className="offer-terms">
        <div>
          <dt>Price</dt>
          <dd>{formatMoney(offer.price)}</dd>
        </div>
        <div>
          <dt>Seller concessions</dt>
          <dd>{formatMoney(offer.concessions)}</dd>
        </div>
        <div>
          <dt>Buyer&apos;s agent</dt>
          <dd>{formatPercent(offer.buyer_agent_percent)}</dd>
        </div>
        <div>
          <dt>Closing date</dt>
          <dd>{longDate(offer.closing_date)}</dd>
        </div>
        <div>
          <dt>Financing</dt>
          <dd>{financingLabel(offer.financing)}</dd>
        </div>
      </dl>
      <p className={`offer-net${offer.net_to_seller < 0 ? ' is-negative' : ''}`} data-testid="offer-net">
        <span className="net-total-label">Net to seller</span>
        <span className="net-total-amount">{netText(offer.net_to_seller)}</span>
      </p>
      <p className="offer-standing">{standing(offer, count)}</p>
      <SheetWarnings warnings={offer.sheet.warnings} />
      <details className="offer-details">
        <summary>Full sheet of offer {index + 1}</summary>
        <DetailedSheet sheet={offer.sheet} />
      </details>
    </li>
  );
}

/** /offers/{uuid}: a static shell that loads the shared comparison named in the URL. */
export default function OffersPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [copyMessage, setCopyMessage] = useState<string | null>(null);

  useEffect(() => {
    const uuid = idInPath();
    const lookup = UUID_PATTERN.test(uuid)
      ? callApi(`/api/offers/${uuid}`, comparisonAnswerSchema)
      : Promise.resolve({ ok: false, status: 404 } as const);
    lookup
      .then((result) => {
        if (!result.ok) {
          setState(result.status === 404 ? { kind: 'not-found' } : { kind: 'failed' });
          return;
        }
        setState({ kind: 'found', comparison: result.data.comparison });
      })
      .catch(() => setState({ kind: 'failed' }));
  }, []);

  if (state.kind === 'loading') {
    return <LinkLoading className="offers-compare" title="Offers Side by Side" message="Loading the offers…" />;
  }
  if (state.kind === 'not-found' || state.kind === 'failed') {
    return (
      <LinkMissing
        kind={state.kind}
        titles={{ 'not-found': 'Offers Not Found', failed: 'Failed to load the offers' }}
        messages={{
          'not-found': 'Offers not found. The link may be mistyped, or the comparison may have been removed.',
          failed: 'We could not load these offers just now. Please try again in a moment.',
        }}
      />
    );
  }
  const { comparison } = state;
  return (
    <section className="offers-compare">
      <h1>Offers Side by Side</h1>
      <p className="field-hint">
        Compared on {new Date(comparison.created_at).toLocaleDateString('en-US', { dateStyle: 'long' })}, each offer on
        the same estimate: its price, concessions and buyer&apos;s agent commission, closing on its own date.
      </p>
      <ol className="offer-columns plain-list">
        {comparison.offers.map((offer, index) => (
          // A stored comparison never changes its offers' order or number: the position is their identity.
          <OfferCard key={index} offer={offer} index={index} count={comparison.offers.length} />
        ))}
      </ol>
      <Notice tone="success" message={copyMessage} />
      <div className="modal-actions estimate-actions">
        <button
          type="button"
          className="button button-primary"
          onClick={() =>
            void copyLink(window.location.href, 'Link copied to clipboard!').then((message) => setCopyMessage(message))
          }
        >
          Copy link
        </button>
        <a className="button button-secondary" href={`/api/offers/${comparison.uuid}/pdf`} download>
          Download PDF
        </a>
        <a className="button button-secondary" href={`/estimate/${comparison.estimate_uuid}`}>
          Back to the estimate
        </a>
      </div>
    </section>
  );
}
