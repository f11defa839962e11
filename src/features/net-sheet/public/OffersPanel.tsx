import { useId, useRef, useState, type SubmitEvent } from 'react';
import { flushSync } from 'react-dom';
import { callApi } from '../../../ui/api-client.ts';
import { Field } from '../../../ui/Field.tsx';
import { fieldErrorsOf, type FieldErrors } from '../../../ui/field-errors.ts';
import { Notice } from '../../../ui/Notice.tsx';
import { priceInputProps } from '../../../ui/price-input.ts';
import { SelectField } from '../../../ui/SelectField.tsx';
import { FINANCING_LABELS } from '../financing.ts';
import { FINANCING_TYPES } from '../offers.ts';
import { dollarsText } from '../refine-form.ts';
import { offersRequestSchema } from './requests.ts';
import { comparisonAnswerSchema, type EstimateTerms } from './sheet-answer.ts';
import { formatMoney } from '../../../ui/money.ts';
import { formatPercent } from './estimate.ts';

const MIN_OFFERS = 2;
const MAX_OFFERS = 4;

interface OfferForm {
  /** Keeps each offer's inputs (and their shown errors) with it when an earlier one is removed. */
  id: number;
  price: string;
  concessions: string;
  buyerAgentPercent: string;
  closingDate: string;
  financing: string;
}

/**
 * A new offer starts from the estimate's own terms where a buyer rarely changes them (its
 * concessions, its closing date): an offer left as it starts nets what the estimate nets. The price
 * is the buyer's to state; the buyer's agent's side stays empty (the estimate's, as its hint says).
 */
const offerFrom = (id: number, terms: EstimateTerms | null): OfferForm => ({
  id,
  price: '',
  concessions: terms ? dollarsText(Math.round(terms.concessions * 100)) : '0',
  buyerAgentPercent: '',
  closingDate: terms?.closing_date ?? '',
  financing: '',
});

const COMPARE_FAILED = 'We could not compare these offers just now. Please try again in a moment.';

/** The request exactly as the form stands: the schema that checks it here is the one the API uses. */
function requestOf(estimateUuid: string, offers: OfferForm[]) {
  return {
    estimate_uuid: estimateUuid,
    offers: offers.map((offer) => ({
      price: offer.price,
      concessions: offer.concessions,
      // Empty: the estimate's own split decides (the API's default).
      buyer_agent_percent: offer.buyerAgentPercent.trim() === '' ? undefined : Number(offer.buyerAgentPercent),
      closing_date: offer.closingDate,
      financing: offer.financing === '' ? undefined : offer.financing,
    })),
  };
}

/**
 * "Compare offers" on /estimate/{uuid}: two to four offers weighed on this estimate's figures. The
 * comparison is stored and opened at its own link, /offers/{uuid}, to share.
 */
export function OffersPanel({ estimateUuid, terms }: { estimateUuid: string; terms: EstimateTerms | null }) {
  const [offers, setOffers] = useState<OfferForm[]>([offerFrom(0, terms), offerFrom(1, terms)]);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  const headingId = useId();

  const update = (id: number, change: Partial<OfferForm>) =>
    setOffers((current) => current.map((offer) => (offer.id === id ? { ...offer, ...change } : offer)));

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setFailure(null);
    const request = requestOf(estimateUuid, offers);
    const parsed = offersRequestSchema.safeParse(request);
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error));
      return;
    }
    setErrors({});
    setSending(true);
    try {
      const result = await callApi('/api/offers', comparisonAnswerSchema, { body: request });
      if (!result.ok) {
        setErrors(result.fields);
        setFailure(result.error);
        return;
      }
      window.location.assign(`/offers/${result.data.comparison.uuid}`);
    } catch {
      setFailure(COMPARE_FAILED);
    } finally {
      setSending(false);
    }
  };

  return (
    <section id="offers" className="offers-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Compare offers</h2>
      <p className="field-hint">
        Enter two to four offers to see what each would leave you with on this estimate&apos;s figures, side by side, at
        a link you can share.
      </p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        {offers.map((offer, index) => {
          const error = (field: string) => errors[`offers.${index}.${field}`];
          const price = (key: 'price' | 'concessions') =>
            priceInputProps(offer[key], (grouped) => update(offer.id, { [key]: grouped }));
          return (
            <fieldset className="offer-fieldset" key={offer.id}>
              <legend>Offer {index + 1}</legend>
              <div className="form-row">
                <Field
                  label="Price"
                  placeholder={terms ? dollarsText(Math.round(terms.sale_price * 100)) : undefined}
                  hint={terms ? `This estimate: ${formatMoney(terms.sale_price)}` : undefined}
                  required
                  error={error('price')}
                  {...price('price')}
                />
                <Field
                  label="Seller concessions"
                  hint={terms ? `This estimate: ${formatMoney(terms.concessions)}` : undefined}
                  required
                  error={error('concessions')}
                  {...price('concessions')}
                />
              </div>
              <div className="form-row">
                <Field
                  label="Buyer's agent %"
                  inputMode="decimal"
                  placeholder={terms ? String(terms.buyer_agent_percent) : undefined}
                  hint={
                    terms
                      ? `Empty: ${formatPercent(terms.buyer_agent_percent)}, as on this estimate (listing side ${formatPercent(terms.listing_commission_percent)})`
                      : 'Empty: as on this estimate'
                  }
                  value={offer.buyerAgentPercent}
                  error={error('buyer_agent_percent')}
                  onChange={(event) => update(offer.id, { buyerAgentPercent: event.target.value })}
                />
                <Field
                  label="Closing date"
                  type="date"
                  hint="Taxes and interest are counted to this day"
                  required
                  value={offer.closingDate}
                  error={error('closing_date')}
                  onChange={(event) => update(offer.id, { closingDate: event.target.value })}
                />
              </div>
              <SelectField
                label="Financing (optional)"
                hint="Shown beside the net to weigh the offer; it changes no figure"
                value={offer.financing}
                error={error('financing')}
                onChange={(financing) => update(offer.id, { financing })}
              >
                <option value="">Not given</option>
                {FINANCING_TYPES.map((financing) => (
                  <option key={financing} value={financing}>
                    {FINANCING_LABELS[financing]}
                  </option>
                ))}
              </SelectField>
              {offers.length > MIN_OFFERS ? (
                <button
                  type="button"
                  className="button button-secondary button-small"
                  onClick={() => {
                    // Rendered at once, so that focus can go to the Add button (absent with four offers)
                    // rather than be lost with the removed button.
                    flushSync(() => {
                      setOffers((current) => current.filter(({ id }) => id !== offer.id));
                      // The shown errors name offers by position, which has just changed.
                      setErrors({});
                    });
                    addButton.current?.focus();
                  }}
                >
                  Remove offer {index + 1}
                </button>
              ) : null}
            </fieldset>
          );
        })}
        <div className="modal-actions offers-actions">
          {offers.length < MAX_OFFERS ? (
            <button
              ref={addButton}
              type="button"
              className="button button-secondary"
              onClick={() =>
                setOffers((current) => [...current, offerFrom(Math.max(...current.map(({ id }) => id)) + 1, terms)])
              }
            >
              Add an offer
            </button>
          ) : null}
          <button type="submit" className="button button-primary" disabled={sending}>
            {sending ? 'Comparing…' : 'Compare offers'}
          </button>
        </div>
        <Notice tone="error" message={failure} />
      </form>
    </section>
  );
}
