import { useState, type SubmitEvent } from 'react';
import type * as z from 'zod';
import { callApi } from '../../../ui/api-client.ts';
import { Field } from '../../../ui/Field.tsx';
import { NAME_PART_MAX, personNameProblem } from '../../forms/public/person-name.ts';
import { formatPrice } from '../../../ui/money.ts';
import { Notice } from '../../../ui/Notice.tsx';
import { priceInputProps } from '../../../ui/price-input.ts';
import { reverseRequestSchema } from './requests.ts';
import { reverseAnswerSchema } from './sheet-answer.ts';

export type ReverseAnswer = z.infer<typeof reverseAnswerSchema>;

/** Both calculators' two questions (the modal and /r/{slug}): the net at a price, the price for a net. */
export const CALCULATOR_TABS = [
  { id: 'price', label: 'What will I net?' },
  { id: 'net', label: 'What must I sell for?' },
] as const;
export type CalculatorTab = (typeof CALCULATOR_TABS)[number]['id'];

/** A text field whose value the calculator holds, so it is kept when the seller switches tabs. */
interface SharedValue {
  value: string;
  onChange: (value: string) => void;
}

interface ReverseFormProps {
  agentSlug: string;
  /** The calculator's payoff field, shared with its price tab, as that tab names and requires it. */
  payoff: SharedValue & {
    label: string;
    /** How messages name it ("Mortgage balance"), in place of the schema's "Mortgage payoff". */
    name: string;
    placeholder: string;
    required: boolean;
  };
  /** The home, county and town pages' modal asks the seller's first name, as its price tab does. */
  firstName?: SharedValue | undefined;
  onEstimate: (answer: ReverseAnswer) => void;
}

type Errors = Partial<Record<'firstName' | 'targetNet' | 'payoff', string>>;

const FAILED = 'There was an error finding your sale price. Please try again.';

/**
 * The calculator's second tab: the net the seller wants to walk away with, and the lowest whole-dollar
 * price that nets it (POST /api/estimates/reverse), answered as a stored estimate at that price.
 */
export function ReverseForm({ agentSlug, payoff, firstName, onEstimate }: ReverseFormProps) {
  const [targetNet, setTargetNet] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failed, setFailed] = useState(false);
  const [loading, setLoading] = useState(false);

  const validate = (): Errors => {
    const found: Errors = {};
    const nameProblem = firstName ? personNameProblem('First name', NAME_PART_MAX, firstName.value) : undefined;
    if (nameProblem) found.firstName = nameProblem;
    if (payoff.required && payoff.value === '') found.payoff = `${payoff.name} is required`;
    const parsed = reverseRequestSchema.safeParse({
      agent_slug: agentSlug,
      target_net: targetNet,
      mortgage_payoff: payoff.value,
    });
    for (const issue of parsed.error?.issues ?? []) {
      if (issue.path[0] === 'target_net') found.targetNet ??= issue.message;
      if (issue.path[0] === 'mortgage_payoff') found.payoff ??= issue.message.replace('Mortgage payoff', payoff.name);
    }
    return found;
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    setFailed(false);
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setLoading(true);
    try {
      const result = await callApi('/api/estimates/reverse', reverseAnswerSchema, {
        body: {
          agent_slug: agentSlug,
          target_net: targetNet.replace(/,/g, ''),
          mortgage_payoff: payoff.value.replace(/,/g, '') || '0',
          ...(firstName ? { recipient_name: firstName.value.trim() } : {}),
        },
      });
      if (result.ok) {
        onEstimate(result.data);
        return;
      }
      // 422: no price up to the largest we accept nets the target; the server says so on that field.
      setErrors({ targetNet: result.fields.target_net, payoff: result.fields.mortgage_payoff });
      setFailed(result.fields.target_net === undefined && result.fields.mortgage_payoff === undefined);
    } catch (error) {
      console.warn('Reverse estimate failed', error);
      setFailed(true);
    } finally {
      setLoading(false);
    }
  };

  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      {firstName ? (
        <Field
          label="First name"
          name="firstName"
          autoComplete="given-name"
          required
          value={firstName.value}
          error={errors.firstName}
          onChange={(event) => firstName.onChange(event.target.value)}
        />
      ) : null}
      <Field
        label="Target net"
        name="targetNet"
        placeholder="300,000"
        required
        hint="What you want to walk away with, after every cost and the payoff"
        error={errors.targetNet}
        {...priceInputProps(targetNet, setTargetNet)}
      />
      <Field
        label={payoff.label}
        name="mortgage"
        placeholder={payoff.placeholder}
        required={payoff.required}
        error={errors.payoff}
        {...priceInputProps(payoff.value, payoff.onChange)}
      />
      <Notice tone="error" message={failed ? FAILED : null} />
      <button type="submit" className="button button-primary button-block" disabled={loading}>
        {loading ? 'Calculating...' : 'Find My Sale Price'}
      </button>
    </form>
  );
}

/** The reverse answer, above the estimate at that price. */
export function SalePriceAnswer({ salePrice }: { salePrice: number }) {
  return (
    <p className="sale-price-answer" data-testid="sale-price-answer">
      Sell for at least <strong>{formatPrice(salePrice)}</strong>
    </p>
  );
}
