import { useEffect, useId, useRef, useState, type ReactNode, type SubmitEvent } from 'react';
import { callApi } from '../../ui/api-client.ts';
import { hasOnlyNameCharacters } from '../forms/person-name.ts';
import { CheckboxField } from '../../ui/CheckboxField.tsx';
import { Field } from '../../ui/Field.tsx';
import { SelectField } from '../../ui/SelectField.tsx';
import { fieldErrorsOf, type FieldErrors } from '../../ui/field-errors.ts';
import { Notice } from '../../ui/Notice.tsx';
import type { Estimate } from '../estimate/estimate-request.ts';
import { formatPercent } from '../estimate/estimate.ts';
import { longDate } from './DetailedSheet.tsx';
import { placeFor, placeFromLink, townNames } from './county.ts';
import { netSheetDetailsSchema } from './details.ts';
import { peconicTownOf } from './peconic-tax.ts';
import {
  detailsFrom,
  dollarsText,
  draftFrom,
  emptyLien,
  emptyOtherLine,
  formFieldKey,
  MAX_LIENS,
  MAX_OTHER_LINES,
  type HalvesDraft,
  type OtherLineDraft,
  type RefineDraft,
  type Switch,
  type WithholdingDraft,
} from './refine-form.ts';
import { detailedEstimateAnswerSchema, type SheetAnswer, type SheetDefaultsAnswer } from './sheet-answer.ts';

export interface RefineFormProps {
  estimate: Estimate;
  /** The estimate's details as stored (null for a quick estimate) and what an empty field means. */
  details: Record<string, unknown> | null;
  defaults: SheetDefaultsAnswer;
  /** The new estimate, stored with its sheet under a new uuid. */
  onRefined: (refined: { estimate: Estimate; sheet: SheetAnswer }) => void;
  onCancel: () => void;
}

type Section = 'commission' | 'liens' | 'closing' | 'fees' | 'taxes' | 'other' | 'withholding';

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

const MONTHS = Array.from({ length: 12 }, (_, index) =>
  new Date(Date.UTC(2026, index, 1)).toLocaleDateString('en-US', { month: 'long', timeZone: 'UTC' }),
);
// Said beside the button the seller just pressed, below the fields (newcomer audit minor 9), with a
// link to each field to fix.
const CHECK_FIELDS = 'Please check the fields marked above:';

/** A field the form marked wrong, named by its label, for the list of links beside the button. */
interface BadField {
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
const onOff = (on: boolean) => (on ? 'on' : 'off');

/**
 * "Refine this estimate": every detail of netSheetDetailsSchema, each optional with a one-line why and
 * the agent's default, in sections the seller opens one at a time. Sends a new estimate with the
 * details (POST /api/estimates); the shared link of the old one keeps its own sheet.
 */
export function RefineForm({ estimate, details, defaults, onRefined, onCancel }: RefineFormProps) {
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
  const townListId = useId();
  const attorneyDefault = `$${dollarsText(Math.round((defaults.attorney_fee ?? estimate.lawyer_fee) * 100))}`;

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

  const section = (id: Section, title: string, children: ReactNode) => (
    <details
      className="refine-section"
      open={open.has(id)}
      onToggle={(event) => {
        const isOpen = event.currentTarget.open;
        setOpen((current) => {
          if (isOpen === current.has(id)) return current;
          const next = new Set(current);
          if (isOpen) next.add(id);
          else next.delete(id);
          return next;
        });
      }}
    >
      <summary>{title}</summary>
      <div className="refine-section-body">{children}</div>
    </details>
  );

  const money = (
    label: string,
    path: string,
    value: string,
    onValue: (value: string) => void,
    hint: ReactNode,
    placeholder = '',
  ) => (
    <Field
      label={label}
      name={path}
      inputMode="decimal"
      autoComplete="off"
      placeholder={placeholder}
      hint={hint}
      value={value}
      error={fields[path]}
      onChange={(event) => onValue(event.target.value)}
    />
  );

  const halves = (key: 'nassau_school' | 'nassau_general' | 'suffolk', legend: string, why: string) => {
    const bill = draft[key];
    const set = (change: Partial<HalvesDraft>) => update({ [key]: { ...bill, ...change } });
    const path = `property_taxes.${key}`;
    return (
      <fieldset className="refine-group">
        <legend>{legend}</legend>
        {money('Annual amount ($)', `${path}.annual`, bill.annual, (annual) => set({ annual }), why)}
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
  };

  /** Nassau's or Suffolk's halves and the village tax: what a house or condo owner is billed. */
  const taxFields = () => (
    <>
      <p className="field-hint">
        Prorated to the closing date: a paid half credits you the buyer’s days, an unpaid one charges you your own, and
        its late penalty once its penalty-free days have passed.
      </p>
      {draft.county === 'Nassau' ? (
        <>
          {halves('nassau_school', 'School tax', 'Billed July to June, in two halves.')}
          {halves('nassau_general', 'General tax', 'Billed January to December, in two halves.')}
        </>
      ) : draft.county === 'Suffolk' ? (
        halves('suffolk', 'Property tax', 'One bill, December to November, paid in two halves.')
      ) : (
        <p className="note">Choose the county (under Closing date and place) to prorate its taxes.</p>
      )}
      <fieldset className="refine-group">
        <legend>Village tax</legend>
        {money(
          'Annual amount ($)',
          'property_taxes.village.annual',
          draft.village.annual,
          (annual) => update({ village: { ...draft.village, annual } }),
          'Only if your home is in an incorporated village. Empty: none.',
        )}
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

  const flipTax = () => {
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
          onChange={(basis) =>
            set({ basis: basis === 'price' || basis === 'profit' || basis === 'shares' ? basis : '' })
          }
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
  };

  const toggle = (key: Switch, label: string, why: string) => (
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

  const withholdingSection = () => {
    const held = draft.withholding;
    const set = (change: Partial<WithholdingDraft>) => update({ withholding: { ...held, ...change } });
    return (
      <>
        <p className="field-hint">
          Most sellers need none of these. Your attorney confirms them; the sheet shows what is taken from your
          proceeds.
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
            {held.principal_residence
              ? null
              : money(
                  'Cost basis ($)',
                  'nonresident_seller.cost_basis',
                  held.cost_basis,
                  (cost_basis) => set({ cost_basis }),
                  'What you paid plus improvements and purchase closing costs. Empty: figured on $0, the most it can be.',
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
  };

  return (
    <form ref={formRef} className="form refine-form" noValidate onSubmit={(event) => void submit(event)}>
      <h2 ref={headingRef} tabIndex={-1}>
        Refine this estimate
      </h2>
      <p className="field-hint">
        Every field is optional: leave one empty and the sheet uses your agent’s default. Open a section to add what you
        know.
      </p>

      {section(
        'commission',
        'Commission and concessions',
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
            Both sides empty: the estimate’s commission ({formatPercent(estimate.commission_percent)}) as one line,
            rounded once as on the estimate; change one side and each side is its own line.
          </p>
          {money(
            'Seller concessions ($)',
            'seller_concessions',
            draft.seller_concessions,
            (seller_concessions) => update({ seller_concessions }),
            'Credits you give the buyer at closing, such as for repairs. Empty: none.',
            '0',
          )}
        </>,
      )}

      {section(
        'liens',
        'Mortgages and liens',
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
                  {money(
                    'Payoff ($)',
                    `${path}.payoff`,
                    lien.payoff,
                    (payoff) => set({ payoff }),
                    'The amount on the payoff letter.',
                  )}
                </div>
                <div className="form-row">
                  {money(
                    'Per-diem interest ($ a day)',
                    `${path}.per_diem_interest`,
                    lien.per_diem_interest,
                    (per_diem_interest) => set({ per_diem_interest }),
                    "Interest for each day after the payoff letter's date. Empty: none.",
                  )}
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
        </>,
      )}

      {section(
        'closing',
        'Closing date and place',
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
          {draft.property_type === 'coop' ? flipTax() : null}
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
        </>,
      )}

      {section(
        'fees',
        'Closing fees',
        <>
          {money(
            'Your attorney’s fee ($)',
            'attorney_fee',
            draft.attorney_fee,
            (attorney_fee) => update({ attorney_fee }),
            `From your attorney’s engagement letter. Empty: ${attorneyDefault}, your agent’s usual figure.`,
            attorneyDefault.replace('$', ''),
          )}
          {toggle('title_closer_pickup', 'Title closer pick-up fee', 'Charged per lien paid off at closing.')}
          {toggle('payoff_bank_attorney', 'Payoff bank attorney fee', 'Charged by some lenders for each payoff.')}
          {/* A co-op has no deed, so no RP-5217 (decision 0039). */}
          {draft.property_type === 'coop'
            ? null
            : toggle(
                'seller_pays_rp5217',
                'RP-5217 filing paid by me',
                'By custom the buyer files it, unless the contract says otherwise.',
              )}
        </>,
      )}

      {section(
        'taxes',
        'Property taxes',
        <>
          {draft.property_type === 'coop' ? (
            <p className="note">
              A co-op owner gets no property tax bill: the co-op pays the building’s taxes from your maintenance, so
              there is nothing of yours to prorate here. Your attorney settles the month’s maintenance at closing.
            </p>
          ) : (
            taxFields()
          )}
        </>,
      )}

      {section(
        'other',
        'Other costs and credits',
        <>
          <p className="field-hint">
            Costs: repairs, a permit or certificate of occupancy cure. Credits: what the buyer pays you at closing, such
            as the heating oil left in the tank. In dollars, or as a percent of the price.
          </p>
          {money(
            'Final water bill ($)',
            'final_water_bill',
            draft.final_water_bill,
            (final_water_bill) => update({ final_water_bill }),
            'Your water district reads the meter just before closing; you pay that last bill. Empty: none.',
          )}
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
        </>,
      )}

      {section('withholding', 'Taxes withheld at closing', withholdingSection())}

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
