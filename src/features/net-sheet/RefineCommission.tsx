import { Field } from '../../ui/Field.tsx';
import type { Estimate } from './public/estimate-request.ts';
import { formatPercent } from './public/estimate.ts';
import { MoneyField, type RefinePartProps } from './RefineSection.tsx';
import type { SheetDefaultsAnswer } from './public/sheet-answer.ts';

/** Each side's commission, or the estimate's one figure, and the seller's concessions. */
export function CommissionFields({
  draft,
  update,
  fields,
  defaults,
  estimate,
}: RefinePartProps & { defaults: SheetDefaultsAnswer; estimate: Estimate }) {
  return (
    <>
      <div className="form-row">
        <Field
          label="Listing side (%)"
          name="listing_commission_percent"
          inputMode="decimal"
          placeholder={String(defaults.listing_commission_percent)}
          hint={`The listing brokerage’s share. Empty: ${formatPercent(defaults.listing_commission_percent)}.`}
          value={draft.listing_commission_percent}
          error={fields.listing_commission_percent}
          onChange={(event) => update({ listing_commission_percent: event.target.value })}
        />
        <Field
          label="Buyer’s agent (%)"
          name="buyer_agent_percent"
          inputMode="decimal"
          placeholder={String(defaults.buyer_agent_percent)}
          hint={`Negotiated on its own since 2024. Empty: ${formatPercent(defaults.buyer_agent_percent)}.`}
          value={draft.buyer_agent_percent}
          error={fields.buyer_agent_percent}
          onChange={(event) => update({ buyer_agent_percent: event.target.value })}
        />
      </div>
      <p className="field-hint">
        Both sides empty: the estimate’s commission ({formatPercent(estimate.commission_percent)}) as one line, rounded
        once as on the estimate; change one side and each side is its own line.
      </p>
      <MoneyField
        label="Seller concessions ($)"
        path="seller_concessions"
        value={draft.seller_concessions}
        onValue={(seller_concessions) => update({ seller_concessions })}
        hint="Credits you give the buyer at closing, such as for repairs. Empty: none."
        placeholder="0"
        error={fields.seller_concessions}
      />
    </>
  );
}
