import { CheckboxField } from '../../ui/CheckboxField.tsx';
import type { Estimate } from './public/estimate-request.ts';
import { dollarsText, type Switch } from './refine-form.ts';
import { MoneyField, type RefinePartProps } from './RefineSection.tsx';
import type { SheetDefaultsAnswer } from './public/sheet-answer.ts';

interface FeesProps extends RefinePartProps {
  /** The estimate's details as stored (null for a quick estimate). */
  details: Record<string, unknown> | null;
  defaults: SheetDefaultsAnswer;
}

/** The seller's attorney's fee, and the fees the agent may include or leave out. */
export function FeesFields({ draft, update, fields, details, defaults, estimate }: FeesProps & { estimate: Estimate }) {
  const attorneyDefault = `$${dollarsText(Math.round((defaults.attorney_fee ?? estimate.lawyer_fee) * 100))}`;
  return (
    <>
      <MoneyField
        label="Your attorney’s fee ($)"
        path="attorney_fee"
        value={draft.attorney_fee}
        onValue={(attorney_fee) => update({ attorney_fee })}
        hint={`From your attorney’s engagement letter. Empty: ${attorneyDefault}, your agent’s usual figure.`}
        placeholder={attorneyDefault.replace('$', '')}
        error={fields.attorney_fee}
      />
      <SwitchField
        name="title_closer_pickup"
        label="Title closer pick-up fee"
        why="Charged per lien paid off at closing."
        draft={draft}
        update={update}
        fields={fields}
        details={details}
        defaults={defaults}
      />
      <SwitchField
        name="payoff_bank_attorney"
        label="Payoff bank attorney fee"
        why="Charged by some lenders for each payoff."
        draft={draft}
        update={update}
        fields={fields}
        details={details}
        defaults={defaults}
      />
      {/* A co-op has no deed, so no RP-5217 (decision 0039). */}
      {draft.property_type === 'coop' ? null : (
        <SwitchField
          name="seller_pays_rp5217"
          label="RP-5217 filing paid by me"
          why="By custom the buyer files it, unless the contract says otherwise."
          draft={draft}
          update={update}
          fields={fields}
          details={details}
          defaults={defaults}
        />
      )}
    </>
  );
}

const onOff = (on: boolean) => (on ? 'on' : 'off');

/** A fee the agent includes or leaves out by default, and the seller may switch. */
function SwitchField({
  name: key,
  label,
  why,
  draft,
  update,
  fields,
  details,
  defaults,
}: FeesProps & { name: Switch; label: string; why: string }) {
  return (
    <CheckboxField
      name={key}
      checked={draft.switches[key]}
      error={fields[key]}
      hint={
        details === null && defaults[key]
          ? `${why} Not on this estimate; your agent usually includes it: tick to add it.`
          : `${why} Your agent’s default: ${onOff(defaults[key])}.`
      }
      onChange={(checked) => update({ switches: { ...draft.switches, [key]: checked } })}
    >
      {label}
    </CheckboxField>
  );
}
