import { useMutation } from '@tanstack/react-query';
import { useId, useState, type SubmitEvent } from 'react';
import { CheckboxField } from '../../../ui/CheckboxField.tsx';
import { Field, FieldMessages } from '../../../ui/Field.tsx';
import { fieldErrorsOf } from '../../../ui/field-errors.ts';
import { Notice } from '../../../ui/Notice.tsx';
import { ApiError, sendJson } from '../../accounts/public/account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from '../../accounts/public/save-failure.ts';
import type { WebhooksBase } from './webhook-query.ts';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  webhookCreateSchema,
  webhookSavedSchema,
  webhookSecretAnswerSchema,
  type WebhookEndpoint,
  type WebhookEventType,
} from './webhooks.ts';

export type SecretAnswer = { message: string; endpoint: WebhookEndpoint; secret: string };

interface FormProps {
  base: WebhooksBase;
  /** Given: the form edits it (URL, description, events); else it adds a new endpoint. */
  endpoint?: WebhookEndpoint | undefined;
  /** A new endpoint with its secret, shown once. */
  onAdded?: (answer: SecretAnswer) => void;
  onSaved?: (answer: { message: string; endpoint: WebhookEndpoint }) => void;
  onCancel: () => void;
}

type Draft = { url: string; description: string; events: WebhookEventType[]; active: boolean };

/** The add and edit form of a webhook endpoint: its address, description, events and (new) whether it is on. */
export function WebhookEndpointForm({ base, endpoint, onAdded, onSaved, onCancel }: FormProps) {
  const adding = endpoint === undefined;
  const [draft, setDraft] = useState<Draft>({
    url: endpoint?.url ?? '',
    description: endpoint?.description ?? '',
    events: endpoint ? [...endpoint.events] : ['lead.created'],
    active: true,
  });
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const eventsId = useId();

  const failed = (error: unknown) => {
    setFields(error instanceof ApiError ? error.fields : {});
    setFailure(
      saveFailureMessage(error, {
        failed: adding ? 'Failed to add the endpoint' : 'Failed to save the endpoint',
        unreachable: 'We could not reach the server. Check your connection and try again.',
      }),
    );
  };

  const add = useMutation({
    mutationFn: (body: Draft) => sendJson('POST', base, webhookSecretAnswerSchema, body),
    onSuccess: (answer) => onAdded?.(answer),
    onError: failed,
  });
  const save = useMutation({
    mutationFn: (body: Omit<Draft, 'active'>) =>
      sendJson('PATCH', `${base}/${endpoint?.id ?? 0}`, webhookSavedSchema, body),
    onSuccess: (answer) => onSaved?.(answer),
    onError: failed,
  });
  const pending = add.isPending || save.isPending;

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setFailure(null);
    const checked = webhookCreateSchema.safeParse(draft);
    if (!checked.success) {
      setFields(fieldErrorsOf(checked.error));
      setFailure(CHECK_FIELDS);
      return;
    }
    setFields({});
    const { url, description, events } = checked.data;
    if (adding) add.mutate({ url, description, events, active: draft.active });
    else save.mutate({ url, description, events });
  };

  const toggleEvent = (type: WebhookEventType, on: boolean) => {
    // The events' message described the boxes as they were.
    setFields((shown) => Object.fromEntries(Object.entries(shown).filter(([field]) => field !== 'events')));
    setDraft((shown) => ({
      ...shown,
      events: WEBHOOK_EVENT_TYPES.filter((each) => (each === type ? on : shown.events.includes(each))),
    }));
  };

  return (
    <form noValidate onSubmit={submit} className="webhook-form" aria-label={adding ? 'Add endpoint' : 'Edit endpoint'}>
      <Field
        label="Endpoint URL"
        name="url"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        hint="https://… — Zapier’s Catch Hook URL, your CRM’s inbound webhook"
        value={draft.url}
        error={fields.url}
        onChange={(event) => setDraft({ ...draft, url: event.target.value })}
      />
      <Field
        label="Description (optional)"
        name="description"
        autoComplete="off"
        maxLength={200}
        hint="For you: which tool or Zap this is."
        value={draft.description}
        error={fields.description}
        onChange={(event) => setDraft({ ...draft, description: event.target.value })}
      />
      <fieldset className="field webhook-events" aria-describedby={fields.events ? `${eventsId}-error` : undefined}>
        <legend>Events to send</legend>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="checkbox">
            <input
              type="checkbox"
              name="events"
              value={type}
              checked={draft.events.includes(type)}
              onChange={(event) => toggleEvent(type, event.target.checked)}
            />
            <span>
              {WEBHOOK_EVENT_LABELS[type]} <code>{type}</code>
            </span>
          </label>
        ))}
        <FieldMessages id={eventsId} hint={null} shownError={fields.events} />
      </fieldset>
      {adding ? (
        <CheckboxField
          name="active"
          checked={draft.active}
          onChange={(active) => setDraft({ ...draft, active })}
          hint="Off: nothing is sent to it until you turn it on."
        >
          Active: send events to this endpoint
        </CheckboxField>
      ) : null}
      <Notice tone="error" message={failure} />
      <div className="nav-actions">
        <button type="submit" className="button button-primary" disabled={pending}>
          {adding ? (pending ? 'Adding…' : 'Add endpoint') : pending ? 'Saving…' : 'Save endpoint'}
        </button>
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
