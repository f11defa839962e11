/**
 * THE schema of a row id a request names (an agent, a lead): every id column is PostgreSQL's
 * `integer` (int4), so a larger number is no row's id. Unbounded, `"agent_id":8589934592` reached the
 * database and answered 500 ("out of range for type integer"; security audit 2026-11-26, finding 13);
 * bounded here it is a 400 on the field, as a malformed id is.
 */
import * as z from 'zod/mini';

/** The largest `integer` (int4) PostgreSQL stores. */
export const MAX_RECORD_ID = 2_147_483_647;

/** What is said when the id is not a number, not whole, below 1, above MAX_RECORD_ID. */
interface IdMessages {
  type: string;
  whole: string;
  min: string;
  max: string;
}

const messagesOf = (label: string | IdMessages): IdMessages =>
  typeof label === 'string'
    ? {
        type: `${label} must be a number`,
        whole: `${label} must be a whole number`,
        min: `${label} must be a positive number`,
        max: `${label} is not valid`,
      }
    : label;

/** An id sent as a JSON number. `label` names it in the messages ("Agent id must be a number"). */
export function recordId(label: string | IdMessages) {
  const messages = messagesOf(label);
  return z
    .number({ error: messages.type })
    .check(z.int(messages.whole), z.gte(1, messages.min), z.lte(MAX_RECORD_ID, messages.max));
}

/** An id in a path or a query, where it arrives as text. */
export function recordIdParam(label: string | IdMessages) {
  const messages = messagesOf(label);
  return z.coerce
    .number({ error: messages.type })
    .check(z.int(messages.whole), z.gte(1, messages.min), z.lte(MAX_RECORD_ID, messages.max));
}
