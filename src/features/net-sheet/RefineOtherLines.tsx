import { Field } from '../../ui/Field.tsx';
import { SelectField } from '../../ui/SelectField.tsx';
import { emptyOtherLine, MAX_OTHER_LINES, type OtherLineDraft } from './refine-form.ts';
import { MoneyField, type RefinePartProps } from './RefineSection.tsx';

/** The final water bill, and the seller's own costs and credits, up to MAX_OTHER_LINES. */
export function OtherLinesFields({ draft, update, fields }: RefinePartProps) {
  return (
    <>
      <p className="field-hint">
        Costs: repairs, a permit or certificate of occupancy cure. Credits: what the buyer pays you at closing, such as
        the heating oil left in the tank. In dollars, or as a percent of the price.
      </p>
      <MoneyField
        label="Final water bill ($)"
        path="final_water_bill"
        value={draft.final_water_bill}
        onValue={(final_water_bill) => update({ final_water_bill })}
        hint="Your water district reads the meter just before closing; you pay that last bill. Empty: none."
        error={fields.final_water_bill}
      />
      {draft.other_lines.map((line, index) => {
        const path = `other_lines.${index}`;
        const set = (change: Partial<OtherLineDraft>) =>
          update({
            other_lines: draft.other_lines.map((each, at) => (at === index ? { ...each, ...change } : each)),
          });
        const valuePath = line.unit === 'percent' ? `${path}.percent` : `${path}.amount`;
        return (
          <fieldset className="refine-group" key={index}>
            <legend>Line {index + 1}</legend>
            <div className="form-row">
              <Field
                label="What it is"
                name={`${path}.name`}
                value={line.name}
                error={fields[`${path}.name`]}
                onChange={(event) => set({ name: event.target.value })}
              />
              <SelectField
                label="Cost or credit"
                value={line.credit ? 'credit' : 'cost'}
                error={fields[`${path}.credit`]}
                onChange={(kind) => set({ credit: kind === 'credit' })}
              >
                <option value="cost">A cost I pay</option>
                <option value="credit">A credit paid to me</option>
              </SelectField>
            </div>
            <div className="form-row">
              <SelectField
                label="Given as"
                value={line.unit}
                error={undefined}
                onChange={(unit) => set({ unit: unit === 'percent' ? 'percent' : 'dollars' })}
              >
                <option value="dollars">Dollars</option>
                <option value="percent">Percent of the sale price</option>
              </SelectField>
              <Field
                label={line.unit === 'percent' ? 'Percent (%)' : 'Amount ($)'}
                name={valuePath}
                inputMode="decimal"
                autoComplete="off"
                value={line.amount}
                error={fields[valuePath] ?? fields[`${path}.amount`]}
                onChange={(event) => set({ amount: event.target.value })}
              />
            </div>
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => update({ other_lines: draft.other_lines.filter((_, at) => at !== index) })}
            >
              Remove line {index + 1}
            </button>
          </fieldset>
        );
      })}
      <span className="field-error" role="alert">
        {fields.other_lines ?? ''}
      </span>
      {draft.other_lines.length < MAX_OTHER_LINES ? (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => update({ other_lines: [...draft.other_lines, emptyOtherLine()] })}
        >
          Add a cost or credit
        </button>
      ) : (
        <p className="field-hint">At most {MAX_OTHER_LINES} lines.</p>
      )}
    </>
  );
}
