/**
 * The one notice a form of the signed-in areas shows when a save did not go through (newcomer audit
 * minor 6). A refusal that names fields, from the form's own check or the server's 400/422, is
 * summed up in a line: the fields carry the messages, and a "Failed to …" beside them would read as a
 * server fault worth retrying. "Failed to …" is kept for real faults (a 5xx, no answer at all).
 */
import { ApiError } from './account-query.ts';

/** The summary beside a form whose fields say what is wrong (it sits above or below the fields). */
export const CHECK_FIELDS = 'Some fields need a change: see the message under each.';

export interface SaveFailureWords {
  /** The form's "Failed to …", for a server fault. */
  failed: string;
  /** Its words for a request that got no answer; the "failed" words when it has none. */
  unreachable?: string | undefined;
}

/** The notice for a save that threw `error` (an ApiError for an error answer, anything else for no answer). */
export function saveFailureMessage(error: unknown, words: SaveFailureWords): string {
  if (!(error instanceof ApiError)) return words.unreachable ?? words.failed;
  if (error.status >= 500) return words.failed;
  if (Object.keys(error.fields).length > 0) return CHECK_FIELDS;
  // A refusal of the whole request (a conflict, a limit): the server's words say what to do.
  return error.message || words.failed;
}
