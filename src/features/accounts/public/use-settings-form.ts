/**
 * A settings form of the signed-in areas: a draft of text fields from the saved settings, checked
 * with the schema the server uses, saved through TanStack Query (the saved settings become the
 * query's data), and the outcome of a failed save in the words of save-failure.ts.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type Dispatch, type SetStateAction, type SubmitEvent } from 'react';
import * as z from 'zod/mini';
import { fieldErrorsOf } from '../../../ui/field-errors.ts';
import { ApiError } from './account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from './save-failure.ts';

export type Outcome = { tone: 'success' | 'error'; message: string } | null;
/** A card's one notice, as useState gives it, shared by the card's actions. */
export type OutcomeState = readonly [Outcome, Dispatch<SetStateAction<Outcome>>];

export function useSettingsForm<Draft extends Record<string, string>, Saved>({
  saved,
  toDraft,
  schema,
  save,
  queryKey,
  messages,
  outcomeState,
}: {
  saved: Saved;
  toDraft: (saved: Saved) => Draft;
  /** Checks the draft before it is sent (the draft is what is sent). */
  schema: z.core.$ZodType;
  save: (draft: Draft) => Promise<{ message: string; settings: Saved }>;
  queryKey: readonly unknown[];
  messages: { saveFailed: string; saveError: string };
  /**
   * The card's one notice, when the card has other actions that tell their outcome in it too (the
   * e-mail card's test e-mail): the latest outcome of any of them is shown (minor 26, decision 0048).
   */
  outcomeState?: OutcomeState;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => toDraft(saved));
  const [fields, setFields] = useState<Record<string, string>>({});
  const ownOutcome = useState<Outcome>(null);
  const [outcome, setOutcome] = outcomeState ?? ownOutcome;
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: (answer) => {
      queryClient.setQueryData(queryKey, answer.settings);
      setDraft(toDraft(answer.settings));
      setOutcome({ tone: 'success', message: answer.message });
    },
    onError: (error) => {
      setFields(error instanceof ApiError ? error.fields : {});
      setOutcome({
        tone: 'error',
        message: saveFailureMessage(error, { failed: messages.saveFailed, unreachable: messages.saveError }),
      });
    },
  });

  /** Checks the draft and saves it (the form's submit, or a dialog's "save anyway"). */
  const saveDraft = () => {
    setOutcome(null);
    const parsed = z.safeParse(schema, draft);
    if (!parsed.success) {
      setFields(fieldErrorsOf(parsed.error));
      setOutcome({ tone: 'error', message: CHECK_FIELDS });
      return;
    }
    setFields({});
    mutation.mutate(draft);
  };

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    saveDraft();
  };

  /**
   * An edit of the draft. A success notice says the saved values are live; once the form is edited
   * again it no longer describes what is on screen, so it goes (minor 26: notices piled up).
   */
  const edit = (next: Draft) => {
    setDraft(next);
    setOutcome((shown) => (shown?.tone === 'success' ? null : shown));
  };

  /** The props of a text Field bound to one draft value. */
  const input = (name: keyof Draft & string) => ({
    name,
    value: draft[name],
    error: fields[name],
    onChange: (event: { target: { value: string } }) => edit({ ...draft, [name]: event.target.value }),
  });

  return { draft, setDraft: edit, fields, outcome, submit, saveDraft, input, pending: mutation.isPending };
}
