import { CheckboxField } from '../../ui/CheckboxField.tsx';
import { SelectField } from '../../ui/SelectField.tsx';
import type { HalvesDraft } from './refine-form.ts';
import { MoneyField, type RefinePartProps } from './RefineSection.tsx';

const MONTHS = Array.from({ length: 12 }, (_, index) =>
  new Date(Date.UTC(2026, index, 1)).toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' }),
);

/** The property taxes to prorate: none of the seller's own for a co-op. */
export function TaxesFields({ draft, update, fields }: RefinePartProps) {
  return (
    <>
      {draft.property_type === 'coop' ? (
        <p className="note">
          A co-op owner gets no property tax bill: the co-op pays the building’s taxes from your maintenance, so there
          is nothing of yours to prorate here. Your attorney settles the month’s maintenance at closing.
        </p>
      ) : (
        <HouseTaxFields draft={draft} update={update} fields={fields} />
      )}
    </>
  );
}

/** Nassau's or Suffolk's halves and the village tax: what a house or condo owner is billed. */
function HouseTaxFields({ draft, update, fields }: RefinePartProps) {
  return (
    <>
      <p className="field-hint">
        Prorated to the closing date: a paid half credits you the buyer’s days, an unpaid one charges you your own, and
        its late penalty once its penalty-free days have passed.
      </p>
      {draft.county === 'Nassau' ? (
        <>
          <HalvesFields
            bill="nassau_school"
            legend="School tax"
            why="Billed July to June, in two halves."
            draft={draft}
            update={update}
            fields={fields}
          />
          <HalvesFields
            bill="nassau_general"
            legend="General tax"
            why="Billed January to December, in two halves."
            draft={draft}
            update={update}
            fields={fields}
          />
        </>
      ) : draft.county === 'Suffolk' ? (
        <HalvesFields
          bill="suffolk"
          legend="Property tax"
          why="One bill, December to November, paid in two halves."
          draft={draft}
          update={update}
          fields={fields}
        />
      ) : (
        <p className="note">Choose the county (under Closing date and place) to prorate its taxes.</p>
      )}
      <fieldset className="refine-group">
        <legend>Village tax</legend>
        <MoneyField
          label="Annual amount ($)"
          path="property_taxes.village.annual"
          value={draft.village.annual}
          onValue={(annual) => update({ village: { ...draft.village, annual } })}
          hint="Only if your home is in an incorporated village. Empty: none."
          error={fields['property_taxes.village.annual']}
        />
        <SelectField
          label="Village tax year starts in"
          value={draft.village.fiscal_year_start_month}
          hint="Most New York villages start theirs on June 1."
          error={fields['property_taxes.village.fiscal_year_start_month']}
          onChange={(month) => update({ village: { ...draft.village, fiscal_year_start_month: month } })}
        >
          {MONTHS.map((name, index) => (
            <option key={name} value={String(index + 1)}>
              {name}
            </option>
          ))}
        </SelectField>
        <CheckboxField
          name="property_taxes.village.paid"
          checked={draft.village.paid}
          onChange={(paid) => update({ village: { ...draft.village, paid } })}
        >
          This year’s village tax is paid
        </CheckboxField>
      </fieldset>
    </>
  );
}

/** One bill paid in two halves: its annual amount and which halves are paid. */
function HalvesFields({
  bill: key,
  legend,
  why,
  draft,
  update,
  fields,
}: RefinePartProps & { bill: 'nassau_school' | 'nassau_general' | 'suffolk'; legend: string; why: string }) {
  const bill = draft[key];
  const set = (change: Partial<HalvesDraft>) => update({ [key]: { ...bill, ...change } });
  const path = `property_taxes.${key}`;
  return (
    <fieldset className="refine-group">
      <legend>{legend}</legend>
      <MoneyField
        label="Annual amount ($)"
        path={`${path}.annual`}
        value={bill.annual}
        onValue={(annual) => set({ annual })}
        hint={why}
        error={fields[`${path}.annual`]}
      />
      <div className="refine-checks">
        <CheckboxField
          name={`${path}.first_half_paid`}
          checked={bill.first_half_paid}
          onChange={(first_half_paid) => set({ first_half_paid })}
        >
          1st half paid
        </CheckboxField>
        <CheckboxField
          name={`${path}.second_half_paid`}
          checked={bill.second_half_paid}
          onChange={(second_half_paid) => set({ second_half_paid })}
        >
          2nd half paid
        </CheckboxField>
      </div>
    </fieldset>
  );
}
