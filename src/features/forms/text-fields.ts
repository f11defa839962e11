/** The text fields every form of the product has, with friendly messages (zod schemas shared by forms and routes). */
import { z } from 'zod';

/** Trimmed text, at least one character and at most `max`. */
export const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** Trimmed text of at most `max` characters; empty means "not given" (null). */
export const optionalText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .nullish()
    .transform((value) => (value ? value : null));
