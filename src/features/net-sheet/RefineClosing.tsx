import { useId } from 'react';
import { CheckboxField } from '../../ui/CheckboxField.tsx';
import { Field } from '../../ui/Field.tsx';
import { SelectField } from '../../ui/SelectField.tsx';
import { longDate } from './public/DetailedSheet.tsx';
import { placeFor, townNames } from './county.ts';
import { peconicTownOf } from './peconic-tax.ts';
import type { RefinePartProps } from './RefineSection.tsx';
import type { SheetDefaultsAnswer } from './public/sheet-answer.ts';

/** The closing date, the town and county, the property's lots and type (a co-op's flip tax). */
export function ClosingFields({
  draft,
  update,
  fields,
  defaults,
}: RefinePartProps & { defaults: SheetDefaultsAnswer }) {
  const townListId = useId();
  return (
    <>
      <Field
        label="Closing date"
        name="closing_date"
        type="date"
        hint={`Interest and taxes run to this day. Empty: ${longDate(defaults.closing_date)}.`}
        value={draft.closing_date}
        error={fields.closing_date}
        onChange={(event) => update({ closing_date: event.target.value })}
      />
      <Field
        label="Town or ZIP code"
        name="town"
        list={townListId}
        autoComplete="off"
        hint="A town or its ZIP code fills in the county; East End towns, villages and hamlets get a note on the buyer’s tax."
        value={draft.town}
        error={fields.town}
        onChange={(event) => {
          const typed = event.target.value;
          update(placeFor(typed) ?? { town: typed });
        }}
      />
      {peconicTownOf(draft.town) ? (
        <CheckboxField
          name="vacant_land"
          checked={draft.vacant_land}
          onChange={(vacant_land) => update({ vacant_land })}
        >
          Vacant land (the buyer’s Peconic Bay tax exempts less of the price)
        </CheckboxField>
      ) : null}
      <datalist id={townListId}>
        {townNames().map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      <SelectField
        label="County"
        value={draft.county}
        hint="Sets the county clerk’s fees per lien and the tax calendar. Empty: one recording fee estimate."
        error={fields.county}
        onChange={(county) => update({ county: county === 'Nassau' || county === 'Suffolk' ? county : '' })}
      >
        <option value="">Not given</option>
        <option value="Nassau">Nassau</option>
        <option value="Suffolk">Suffolk</option>
      </SelectField>
      {draft.property_type !== 'coop' && draft.county === 'Suffolk' ? (
        <Field
          label="Tax lots"
          name="suffolk_lots"
          inputMode="numeric"
          placeholder="1"
          hint="Suffolk verifies each lien against every lot of the property. Empty: 1."
          value={draft.suffolk_lots}
          error={fields.suffolk_lots}
          onChange={(event) => update({ suffolk_lots: event.target.value })}
        />
      ) : null}
      <SelectField
        label="Property type"
        value={draft.property_type}
        hint="A co-op has no deed to record: its share loan ends with a UCC-3, and the co-op charges its own fees."
        error={fields.property_type}
        onChange={(type) =>
          update({ property_type: type === 'house' || type === 'condo' || type === 'coop' ? type : '' })
        }
      >
        <option value="">1–3 family house</option>
        <option value="condo">Condominium</option>
        <option value="coop">Co-op</option>
      </SelectField>
      {draft.property_type === 'coop' ? <FlipTaxFields draft={draft} update={update} fields={fields} /> : null}
      {draft.property_type !== 'coop' && draft.county === 'Nassau' ? (
        <div className="form-row">
          <Field
            label="Tax lots"
            name="nassau_lots"
            inputMode="numeric"
            placeholder="1"
            hint="Nassau verifies each section, block and lot on every satisfaction. Empty: 1."
            value={draft.nassau_lots}
            error={fields.nassau_lots}
            onChange={(event) => update({ nassau_lots: event.target.value })}
          />
          <Field
            label="Tax blocks"
            name="nassau_blocks"
            inputMode="numeric"
            placeholder="1"
            hint="The block fee is charged per block. Empty: 1."
            value={draft.nassau_blocks}
            error={fields.nassau_blocks}
            onChange={(event) => update({ nassau_blocks: event.target.value })}
          />
        </div>
      ) : null}
    </>
  );
}

/** A co-op's flip tax, figured as its bylaws say. */
function FlipTaxFields({ draft, update, fields }: RefinePartProps) {
  const flip = draft.flip_tax;
  const set = (change: Partial<typeof flip>) => update({ flip_tax: { ...flip, ...change } });
  const text = (label: string, key: 'percent' | 'purchase_price' | 'dollars_per_share' | 'shares', hint: string) => (
    <Field
      label={label}
      name={`flip_tax.${key}`}
      inputMode="decimal"
      autoComplete="off"
      hint={hint}
      value={flip[key]}
      error={fields[`flip_tax.${key}`]}
      onChange={(event) => set({ [key]: event.target.value })}
    />
  );
  return (
    <fieldset className="refine-group">
      <legend>Co-op flip tax</legend>
      <SelectField
        label="Figured as"
        value={flip.basis}
        hint="From the co-op’s bylaws or its managing agent. Empty: no flip tax."
        error={fields['flip_tax.basis'] ?? fields.flip_tax}
        onChange={(basis) => set({ basis: basis === 'price' || basis === 'profit' || basis === 'shares' ? basis : '' })}
      >
        <option value="">No flip tax</option>
        <option value="price">A percent of the price</option>
        <option value="profit">A percent of the profit</option>
        <option value="shares">Dollars per share</option>
      </SelectField>
      {flip.basis === 'price' || flip.basis === 'profit' ? (
        <div className="form-row">
          {text('Percent (%)', 'percent', 'Often 1–3%.')}
          {flip.basis === 'profit'
            ? text('What you paid ($)', 'purchase_price', 'The profit is the price less this.')
            : null}
        </div>
      ) : null}
      {flip.basis === 'shares' ? (
        <div className="form-row">
          {text('Dollars per share ($)', 'dollars_per_share', 'As the co-op sets it.')}
          {text('Shares', 'shares', 'On your stock certificate.')}
        </div>
      ) : null}
    </fieldset>
  );
}
