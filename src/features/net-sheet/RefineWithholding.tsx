import { CheckboxField } from '../../ui/CheckboxField.tsx';
import type { WithholdingDraft } from './refine-form.ts';
import { MoneyField, type RefinePartProps } from './RefineSection.tsx';

/** The taxes withheld at closing (FIRPTA, New York's IT-2663, the mansion tax): off for most sellers. */
export function WithholdingFields({ draft, update, fields }: RefinePartProps) {
  const held = draft.withholding;
  const set = (change: Partial<WithholdingDraft>) => update({ withholding: { ...held, ...change } });
  return (
    <>
      <p className="field-hint">
        Most sellers need none of these. Your attorney confirms them; the sheet shows what is taken from your proceeds.
      </p>
      <CheckboxField
        name="foreign_seller"
        checked={held.foreign_seller}
        error={fields.foreign_seller}
        hint="Not a US citizen or resident for tax purposes: the buyer withholds part of the price for the IRS (FIRPTA), credited on your US return."
        onChange={(foreign_seller) => set({ foreign_seller })}
      >
        I am a foreign seller
      </CheckboxField>
      {held.foreign_seller ? (
        <CheckboxField
          name="foreign_seller.buyer_residence"
          checked={held.buyer_residence}
          error={fields['foreign_seller.buyer_residence']}
          hint="Then 0% up to $300,000 and 10% up to $1,000,000; otherwise 15%."
          onChange={(buyer_residence) => set({ buyer_residence })}
        >
          The buyer will live in the home
        </CheckboxField>
      ) : null}
      <CheckboxField
        name="nonresident_seller"
        checked={held.nonresident_seller}
        error={fields.nonresident_seller}
        hint="New York takes estimated tax on your gain when the deed is recorded (form IT-2663), credited on your NY return."
        onChange={(nonresident_seller) => set({ nonresident_seller })}
      >
        I do not live in New York State
      </CheckboxField>
      {held.nonresident_seller ? (
        <>
          <CheckboxField
            name="nonresident_seller.principal_residence"
            checked={held.principal_residence}
            error={fields['nonresident_seller.principal_residence']}
            hint="Your main home, owned and lived in for 2 of the last 5 years (IRC §121): no New York estimated tax."
            onChange={(principal_residence) => set({ principal_residence })}
          >
            The home fully qualifies as my principal residence
          </CheckboxField>
          {held.principal_residence ? null : (
            <MoneyField
              label="Cost basis ($)"
              path="nonresident_seller.cost_basis"
              value={held.cost_basis}
              onValue={(cost_basis) => set({ cost_basis })}
              hint="What you paid plus improvements and purchase closing costs. Empty: figured on $0, the most it can be."
              error={fields['nonresident_seller.cost_basis']}
            />
          )}
        </>
      ) : null}
      <CheckboxField
        name="buyer_exempt_from_mansion_tax"
        checked={held.buyer_exempt_from_mansion_tax}
        error={fields.buyer_exempt_from_mansion_tax}
        hint="A government buyer, for example: at $1,000,000 or more you pay the 1% mansion tax instead."
        onChange={(buyer_exempt_from_mansion_tax) => set({ buyer_exempt_from_mansion_tax })}
      >
        The buyer is exempt from the mansion tax
      </CheckboxField>
    </>
  );
}
