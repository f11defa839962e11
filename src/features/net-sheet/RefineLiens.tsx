import { Field } from '../../ui/Field.tsx';
import { emptyLien, MAX_LIENS } from './refine-form.ts';
import { MoneyField, type RefinePartProps } from './RefineSection.tsx';

/** The mortgages and liens paid off at closing, one group each, up to MAX_LIENS. */
export function LiensFields({ draft, update, fields }: RefinePartProps) {
  return (
    <>
      <p className="field-hint">
        Each mortgage or home equity line paid off at closing, from the lender’s payoff letter.
      </p>
      {draft.liens.map((lien, index) => {
        const path = `liens.${index}`;
        const set = (change: Partial<typeof lien>) =>
          update({ liens: draft.liens.map((each, at) => (at === index ? { ...each, ...change } : each)) });
        return (
          <fieldset className="refine-group" key={index}>
            <legend>Lien {index + 1}</legend>
            <div className="form-row">
              <Field
                label="Name"
                name={`${path}.label`}
                placeholder="Mortgage"
                value={lien.label}
                error={fields[`${path}.label`]}
                onChange={(event) => set({ label: event.target.value })}
              />
              <MoneyField
                label="Payoff ($)"
                path={`${path}.payoff`}
                value={lien.payoff}
                onValue={(payoff) => set({ payoff })}
                hint="The amount on the payoff letter."
                error={fields[`${path}.payoff`]}
              />
            </div>
            <div className="form-row">
              <MoneyField
                label="Per-diem interest ($ a day)"
                path={`${path}.per_diem_interest`}
                value={lien.per_diem_interest}
                onValue={(per_diem_interest) => set({ per_diem_interest })}
                hint="Interest for each day after the payoff letter's date. Empty: none."
                error={fields[`${path}.per_diem_interest`]}
              />
              <Field
                label="Payoff good through"
                name={`${path}.payoff_date`}
                type="date"
                hint="The date the payoff letter's figure is good through: required with per-diem interest."
                value={lien.payoff_date}
                error={fields[`${path}.payoff_date`]}
                onChange={(event) => set({ payoff_date: event.target.value })}
              />
            </div>
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => update({ liens: draft.liens.filter((_, at) => at !== index) })}
            >
              Remove lien {index + 1}
            </button>
          </fieldset>
        );
      })}
      <span className="field-error" role="alert">
        {fields.liens ?? ''}
      </span>
      {draft.liens.length < MAX_LIENS ? (
        <button
          type="button"
          className="button button-secondary"
          onClick={() => update({ liens: [...draft.liens, emptyLien()] })}
        >
          Add a lien
        </button>
      ) : (
        <p className="field-hint">At most {MAX_LIENS} liens.</p>
      )}
    </>
  );
}
