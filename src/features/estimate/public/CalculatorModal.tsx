import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import * as z from 'zod';
import { callApi } from '../../../ui/api-client.ts';
import { Field } from '../../../ui/Field.tsx';
import { NAME_PART_MAX, personNameProblem } from '../../forms/public/person-name.ts';
import { priceInputProps } from '../../../ui/price-input.ts';
import { Modal } from '../../../ui/Modal.tsx';
import { Notice } from '../../../ui/Notice.tsx';
import { Tabs } from '../../../ui/Tabs.tsx';
import {
  CALCULATOR_TABS,
  ReverseForm,
  SalePriceAnswer,
  type CalculatorTab,
} from '../../net-sheet/public/ReverseForm.tsx';
import { $openModal, closeModal, openContactAbout } from '../../leads/public/page-modals.ts';
import { sourcePage, track } from '../../../ui/analytics.ts';
import { copyLink } from '../../../ui/clipboard.ts';
import { estimateRequestSchema, estimateSchema, type Estimate } from '../../net-sheet/public/estimate-request.ts';
import { NetSheet } from '../../net-sheet/public/NetSheet.tsx';
import { MORTGAGE_FIELD, mortgageMessage, SALE_PRICE_FIELD } from './calculator-fields.ts';

interface CalculatorModalProps {
  agentSlug: string;
  agentFirstName: string;
  /** Home page: required; county pages: optional. */
  mortgageRequired: boolean;
}

const emptyForm = { firstName: '', salePrice: '', mortgage: '' };
type FormErrors = Partial<Record<keyof typeof emptyForm, string>>;
const createdSchema = z.object({ success: z.literal(true), estimate: estimateSchema });

const ESTIMATE_FAILED = 'There was an error calculating your estimate. Please try again.';

export default function CalculatorModal({ agentSlug, agentFirstName, mortgageRequired }: CalculatorModalProps) {
  const open = useStore($openModal) === 'calculator';
  const [form, setForm] = useState(emptyForm);
  const [errors, setErrors] = useState<FormErrors>({});
  const [loading, setLoading] = useState(false);
  const [tab, setTab] = useState<CalculatorTab>('price');
  const [estimate, setEstimate] = useState<Estimate | null>(null);
  /** Set when the estimate answers "what must I sell for?": the price it found. */
  const [answeredPrice, setAnsweredPrice] = useState<number | null>(null);
  const [greetingName, setGreetingName] = useState('');
  const [failed, setFailed] = useState(false);
  const [copyMessage, setCopyMessage] = useState<string | null>(null);

  const reset = () => {
    setForm(emptyForm);
    setErrors({});
    setEstimate(null);
    setAnsweredPrice(null);
    setFailed(false);
    setCopyMessage(null);
  };

  const validate = (): FormErrors => {
    const found: FormErrors = {};
    // The rule of every name form, so the name carried into "Talk to…" is one the contact form takes.
    const nameProblem = personNameProblem('First name', NAME_PART_MAX, form.firstName);
    if (nameProblem) found.firstName = nameProblem;
    if (mortgageRequired && !form.mortgage) found.mortgage = `${MORTGAGE_FIELD.label} is required`;
    const parsed = estimateRequestSchema.safeParse({
      agent_slug: agentSlug,
      sale_price: form.salePrice,
      mortgage_payoff: form.mortgage,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.path[0] === 'sale_price') found.salePrice ??= issue.message;
        if (issue.path[0] === 'mortgage_payoff') found.mortgage ??= mortgageMessage(issue.message);
      }
    }
    return found;
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setEstimate(null);
    setFailed(false);
    setCopyMessage(null);
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setLoading(true);
    try {
      const result = await callApi('/api/estimates', createdSchema, {
        body: {
          agent_slug: agentSlug,
          sale_price: form.salePrice.replace(/,/g, ''),
          mortgage_payoff: form.mortgage.replace(/,/g, '') || '0',
          recipient_name: form.firstName.trim(),
        },
      });
      if (!result.ok) {
        setErrors({ salePrice: result.fields.sale_price, mortgage: result.fields.mortgage_payoff });
        setFailed(true);
        return;
      }
      setGreetingName(form.firstName.trim());
      setAnsweredPrice(null);
      setEstimate(result.data.estimate);
      track({ event: 'estimate_calculated', source_page: sourcePage() });
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  };

  const copyEstimateLink = async () => {
    if (!estimate) return;
    // On a town's page the link carries the town, for the refine form (an East End town's buyer tax note).
    const town = document.querySelector<HTMLElement>('[data-estimate-town]')?.dataset.estimateTown;
    const url = `${window.location.origin}/estimate/${estimate.uuid}${town ? `?town=${encodeURIComponent(town)}` : ''}`;
    setCopyMessage(await copyLink(url, 'Estimate link copied to clipboard!'));
    track({ event: 'estimate_link_copied', source_page: sourcePage() });
  };

  const price = (key: 'salePrice' | 'mortgage') =>
    priceInputProps(form[key], (grouped) => setForm({ ...form, [key]: grouped }));

  const mortgageLabel = mortgageRequired ? MORTGAGE_FIELD.label : MORTGAGE_FIELD.optionalLabel;

  return (
    <Modal open={open} title={estimate ? 'Your Estimate' : 'What Will You Net?'} onClose={closeModal}>
      {estimate ? (
        <div className="form">
          {answeredPrice === null ? null : <SalePriceAnswer salePrice={answeredPrice} />}
          <p>Hello {greetingName}! Here&apos;s your estimated net proceeds:</p>
          <NetSheet estimate={estimate} />
          <Notice tone="success" message={copyMessage} />
          <div className="modal-actions">
            <button type="button" className="button button-primary" onClick={() => void copyEstimateLink()}>
              Copy Estimate Link
            </button>
            <button
              type="button"
              className="button button-secondary"
              onClick={() => openContactAbout({ firstName: greetingName, estimate })}
            >
              Talk to {agentFirstName}
            </button>
            <button type="button" className="button button-secondary" onClick={reset}>
              Calculate Again
            </button>
            <button type="button" className="button button-secondary" onClick={closeModal}>
              Close
            </button>
          </div>
        </div>
      ) : (
        <Tabs label="Calculator" tabs={CALCULATOR_TABS} selected={tab} onSelect={setTab}>
          {tab === 'price' ? (
            <form className="form" noValidate onSubmit={(event) => void submit(event)}>
              <Field
                label="First name"
                name="firstName"
                autoComplete="given-name"
                required
                value={form.firstName}
                error={errors.firstName}
                onChange={(event) => setForm({ ...form, firstName: event.target.value })}
              />
              <Field
                label={SALE_PRICE_FIELD.label}
                name="salePrice"
                placeholder={SALE_PRICE_FIELD.placeholder}
                required
                error={errors.salePrice}
                {...price('salePrice')}
              />
              <Field
                label={mortgageLabel}
                name="mortgage"
                placeholder={MORTGAGE_FIELD.placeholder}
                required={mortgageRequired}
                error={errors.mortgage}
                {...price('mortgage')}
              />
              <p className="note">
                Your estimate includes the commission, New York State transfer tax, the attorney fee and the recording
                fee.
              </p>
              <Notice tone="error" message={failed ? ESTIMATE_FAILED : null} />
              <button type="submit" className="button button-primary button-block" disabled={loading}>
                {loading ? 'Calculating...' : 'Calculate My Net Proceeds'}
              </button>
            </form>
          ) : (
            <ReverseForm
              agentSlug={agentSlug}
              firstName={{ value: form.firstName, onChange: (firstName) => setForm({ ...form, firstName }) }}
              payoff={{
                value: form.mortgage,
                onChange: (mortgage) => setForm({ ...form, mortgage }),
                label: mortgageLabel,
                name: MORTGAGE_FIELD.label,
                required: mortgageRequired,
                placeholder: MORTGAGE_FIELD.placeholder,
              }}
              onEstimate={(answer) => {
                setGreetingName(form.firstName.trim());
                setAnsweredPrice(answer.sale_price);
                setEstimate(answer.estimate);
                track({ event: 'estimate_calculated', source_page: sourcePage() });
              }}
            />
          )}
        </Tabs>
      )}
    </Modal>
  );
}
