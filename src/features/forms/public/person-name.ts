/**
 * A person's name, one rule for every form that takes one (newcomer audit minor 5): the home
 * calculator, contact, unlock, send-by-e-mail, sign-up, profile and the admin's new agent. Letters of
 * any script with their accents (marks), spaces, apostrophes, hyphens and periods; nothing else, so
 * emoji and symbols are refused everywhere with the same words, and a name one form took is taken by
 * the next ("Talk to…" after the calculator). Names go into e-mails the product sends, so no link,
 * address or markup either.
 */
import * as z from 'zod/mini';
import { requiredText, withoutLinks } from './text-fields.ts';

/** The longest first or last name the seller forms take (a full name may be twice that). */
export const NAME_PART_MAX = 50;

const NAME_CHARACTERS = /^[\p{L}\p{M} '’.-]*$/u;

export const nameCharactersMessage = (label: string) =>
  `${label} can only contain letters, spaces, apostrophes, hyphens and periods`;

/** Whether `value` is made only of a name's characters (the islands' quick check). */
export const hasOnlyNameCharacters = (value: string): boolean => NAME_CHARACTERS.test(value);

/** A required name of at most `max` characters, trimmed. */
export const personName = (label: string, max: number) =>
  requiredText(label, max).check(
    z.refine(hasOnlyNameCharacters, { message: nameCharactersMessage(label), abort: true }),
    // "example.com", "www.x": a period right before two letters; initials ("J.R. Smith") have one.
    withoutLinks(label),
  );

/** The same rule for a name that may be left out: empty or absent is null. */
export const optionalPersonName = (label: string, max: number) =>
  z.pipe(
    z.nullish(
      z
        .string({ error: `${label} must be text` })
        .check(
          z.trim(),
          z.maxLength(max, `${label} must be at most ${max} characters`),
          z.refine(hasOnlyNameCharacters, { message: nameCharactersMessage(label), abort: true }),
          withoutLinks(label),
        ),
    ),
    z.transform((value) => (value ? value : null)),
  );

/** The first problem with a required name typed in a form, or undefined when it is a name. */
export function personNameProblem(label: string, max: number, value: string): string | undefined {
  const parsed = personName(label, max).safeParse(value);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}
