/**
 * The refine form's state, its check and its sending: the draft the inputs hold, the sections open,
 * the fields marked wrong (by the schema before sending, or by the API's answer) and the result.
 */
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { callApi } from '../../ui/api-client.ts';
import { fieldErrorsOf, type FieldErrors } from '../../ui/field-errors.ts';
import type { Estimate } from './public/estimate-request.ts';
import { hasOnlyNameCharacters } from '../forms/public/person-name.ts';
import { placeFromLink } from './county.ts';
import { netSheetDetailsSchema } from './details.ts';
import { detailsFrom, draftFrom, formFieldKey, type RefineDraft } from './refine-form.ts';
import { detailedEstimateAnswerSchema, type SheetAnswer, type SheetDefaultsAnswer } from './public/sheet-answer.ts';

export interface RefineFormProps {
  estimate: Estimate;
  /** The estimate's details as stored (null for a quick estimate) and what an empty field means. */
  details: Record<string, unknown> | null;
  defaults: SheetDefaultsAnswer;
  /** The new estimate, stored with its sheet under a new uuid. */
  onRefined: (refined: { estimate: Estimate; sheet: SheetAnswer }) => void;
  onCancel: () => void;
}

export type Section = 'commission' | 'liens' | 'closing' | 'fees' | 'taxes' | 'other' | 'withholding';

/** The section holding a field, by the first part of its path, to open it when the field is wrong. */
const SECTION_OF: Record<string, Section> = {
  listing_commission_percent: 'commission',
  buyer_agent_percent: 'commission',
  seller_concessions: 'commission',
  attorney_fee: 'fees',
  liens: 'liens',
  closing_date: 'closing',
  county: 'closing',
  town: 'closing',
  vacant_land: 'closing',
  suffolk_lots: 'closing',
  nassau_lots: 'closing',
  nassau_blocks: 'closing',
  property_type: 'closing',
  flip_tax: 'closing',
  title_closer_pickup: 'fees',
  payoff_bank_attorney: 'fees',
  seller_pays_rp5217: 'fees',
  property_taxes: 'taxes',
  other_lines: 'other',
  final_water_bill: 'other',
  foreign_seller: 'withholding',
  nonresident_seller: 'withholding',
  buyer_exempt_from_mansion_tax: 'withholding',
};

// Said beside the button the seller just pressed, below the fields (newcomer audit minor 9), with a
// link to each field to fix.
export const CHECK_FIELDS = 'Please check the fields marked above:';

/** A field the form marked wrong, named by its label, for the list of links beside the button. */
export interface BadField {
  id: string;
  label: string;
}

function labelOf(control: HTMLElement): string {
  const labels =
    control instanceof HTMLInputElement ||
    control instanceof HTMLSelectElement ||
    control instanceof HTMLTextAreaElement
      ? control.labels
      : null;
  return labels?.[0]?.textContent?.trim() || control.getAttribute('aria-label') || 'A field';
}

/** The state of RefineForm (see there) and what its parts change it with. */
export function useRefineForm({ estimate, details, defaults, onRefined }: Omit<RefineFormProps, 'onCancel'>) {
  // A quick estimate made on a town's page carries the town in its link: the form starts in that town
  // (and its county), so an East End sale gets the buyer's tax note without retyping it.
  const [draft, setDraft] = useState<RefineDraft>(() => ({
    ...draftFrom(estimate, details, defaults),
    ...(details === null ? placeFromLink(window.location.search) : undefined),
  }));
  const [open, setOpen] = useState<ReadonlySet<Section>>(() => new Set(['liens']));
  const [fields, setFields] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Opened by a button that then goes away: the focus (and a phone's view) moves to the form.
  useEffect(() => headingRef.current?.focus(), []);

  // After a refused submit, the first wrong field takes the focus (its section was opened for it),
  // and the message lists every wrong field as the page shows them.
  const [badFields, setBadFields] = useState<BadField[]>([]);
  useEffect(() => {
    const marked = Object.keys(fields).length > 0;
    const invalid = marked
      ? Array.from(formRef.current?.querySelectorAll<HTMLElement>('[aria-invalid="true"]') ?? [])
      : [];
    invalid[0]?.focus();
    setBadFields(
      invalid.filter((control) => control.id).map((control) => ({ id: control.id, label: labelOf(control) })),
    );
  }, [fields]);

  const update = (change: Partial<RefineDraft>) => setDraft((current) => ({ ...current, ...change }));
  const refuse = (errors: FieldErrors, message: string) => {
    setFields(errors);
    setFailure(message);
    setOpen(
      (current) =>
        new Set([
          ...current,
          ...Object.keys(errors).flatMap((key) => {
            const section = SECTION_OF[key.split('.')[0] ?? ''];
            return section ? [section] : [];
          }),
        ]),
    );
  };

  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const sent = detailsFrom(draft, defaults);
    const parsed = netSheetDetailsSchema.safeParse(sent);
    if (!parsed.success) {
      refuse(fieldErrorsOf(parsed.error), CHECK_FIELDS);
      return;
    }
    setFields({});
    setFailure(null);
    setSending(true);
    try {
      const result = await callApi('/api/estimates', detailedEstimateAnswerSchema, {
        body: {
          agent_slug: estimate.agent_slug,
          sale_price: estimate.sale_price,
          mortgage_payoff: estimate.mortgage_payoff,
          // A name kept from before the one name rule (an emoji) is left out rather than refused.
          recipient_name:
            estimate.recipient_name !== null && hasOnlyNameCharacters(estimate.recipient_name)
              ? estimate.recipient_name
              : null,
          details: sent,
        },
      });
      if (result.ok) {
        onRefined({ estimate: result.data.estimate, sheet: result.data.sheet });
        return;
      }
      const errors = Object.fromEntries(Object.entries(result.fields).map(([key, text]) => [formFieldKey(key), text]));
      refuse(errors, Object.keys(errors).length > 0 ? CHECK_FIELDS : result.error);
    } catch (error) {
      console.warn('Refining the estimate failed', error);
      setFailure('We could not refine your estimate just now. Please try again in a moment.');
    } finally {
      setSending(false);
    }
  };

  /** What a section's <details> needs: whether it is open, and the seller opening or closing it. */
  const sectionProps = (id: Section) => ({
    open: open.has(id),
    onOpenChange: (isOpen: boolean) =>
      setOpen((current) => {
        if (isOpen === current.has(id)) return current;
        const next = new Set(current);
        if (isOpen) next.add(id);
        else next.delete(id);
        return next;
      }),
  });

  return { draft, update, fields, failure, sending, badFields, formRef, headingRef, submit, sectionProps };
}
