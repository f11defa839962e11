import { Notice } from '../../ui/Notice.tsx';
import { CommissionFields } from './RefineCommission.tsx';
import { ClosingFields } from './RefineClosing.tsx';
import { FeesFields } from './RefineFees.tsx';
import { LiensFields } from './RefineLiens.tsx';
import { OtherLinesFields } from './RefineOtherLines.tsx';
import { RefineSection } from './RefineSection.tsx';
import { TaxesFields } from './RefineTaxes.tsx';
import { WithholdingFields } from './RefineWithholding.tsx';
import { CHECK_FIELDS, useRefineForm, type RefineFormProps } from './use-refine-form.ts';

/**
 * "Refine this estimate": every detail of netSheetDetailsSchema, each optional with a one-line why and
 * the agent's default, in sections the seller opens one at a time. Sends a new estimate with the
 * details (POST /api/estimates); the shared link of the old one keeps its own sheet.
 */
export function RefineForm({ estimate, details, defaults, onRefined, onCancel }: RefineFormProps) {
  const { draft, update, fields, failure, sending, badFields, formRef, headingRef, submit, sectionProps } =
    useRefineForm({ estimate, details, defaults, onRefined });
  const parts = { draft, update, fields };

  return (
    <form ref={formRef} className="form refine-form" noValidate onSubmit={(event) => void submit(event)}>
      <h2 ref={headingRef} tabIndex={-1}>
        Refine this estimate
      </h2>
      <p className="field-hint">
        Every field is optional: leave one empty and the sheet uses your agent’s default. Open a section to add what you
        know.
      </p>

      <RefineSection title="Commission and concessions" {...sectionProps('commission')}>
        <CommissionFields {...parts} defaults={defaults} estimate={estimate} />
      </RefineSection>
      <RefineSection title="Mortgages and liens" {...sectionProps('liens')}>
        <LiensFields {...parts} />
      </RefineSection>
      <RefineSection title="Closing date and place" {...sectionProps('closing')}>
        <ClosingFields {...parts} defaults={defaults} />
      </RefineSection>
      <RefineSection title="Closing fees" {...sectionProps('fees')}>
        <FeesFields {...parts} details={details} defaults={defaults} estimate={estimate} />
      </RefineSection>
      <RefineSection title="Property taxes" {...sectionProps('taxes')}>
        <TaxesFields {...parts} />
      </RefineSection>
      <RefineSection title="Other costs and credits" {...sectionProps('other')}>
        <OtherLinesFields {...parts} />
      </RefineSection>
      <RefineSection title="Taxes withheld at closing" {...sectionProps('withholding')}>
        <WithholdingFields {...parts} />
      </RefineSection>

      <Notice tone="error" message={failure}>
        {failure === CHECK_FIELDS && badFields.length > 0 ? (
          <ul className="refine-bad-fields">
            {badFields.map((field) => (
              <li key={field.id}>
                <a
                  href={`#${field.id}`}
                  onClick={(event) => {
                    event.preventDefault();
                    document.getElementById(field.id)?.focus();
                  }}
                >
                  {field.label}
                </a>
              </li>
            ))}
          </ul>
        ) : null}
      </Notice>
      <div className="modal-actions">
        <button type="submit" className="button button-primary" disabled={sending}>
          {sending ? 'Refining…' : 'Show my detailed sheet'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
