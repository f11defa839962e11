import type * as z from 'zod/mini';

export type FieldErrors = Record<string, string>;

/** The first message for each field of a failed parse (nested paths joined with dots). */
export function fieldErrorsOf(error: z.core.$ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}
