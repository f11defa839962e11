import * as z from 'zod/mini';

// In the browser zod must not compile validators with `new Function`: the CSP forbids eval.
z.config({ jitless: true });

const apiErrorSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  fields: z._default(z.record(z.string(), z.string()), {}),
});

export type ApiResult<T> =
  | { ok: true; data: T }
  | {
      ok: false;
      status: number;
      error: string;
      fields: Record<string, string>;
      /** A 429's Retry-After, in seconds (null without one): when trying again can succeed. */
      retryAfterSeconds: number | null;
    };

/** A Retry-After of whole seconds (the API never sends the date form). */
const retryAfterOf = (response: Response): number | null => {
  const seconds = Number(response.headers.get('retry-after') ?? Number.NaN);
  return Number.isInteger(seconds) && seconds >= 0 ? seconds : null;
};

/**
 * Calls our API from an island (a JSON body, a FormData one sent as multipart, or a file sent as
 * it is, streamed by the browser rather than read into memory) and parses the
 * answer with `schema`. A network failure rejects;
 * an error answer resolves with its message and per-field errors.
 */
export async function callApi<Schema extends z.core.$ZodType>(
  path: string,
  schema: Schema,
  init: { method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; body?: unknown } = {},
): Promise<ApiResult<z.output<Schema>>> {
  // A FormData body goes as multipart, with the boundary the browser picks for its Content-Type.
  const isForm = init.body instanceof FormData;
  const file = init.body instanceof Blob ? init.body : undefined;
  const response = await fetch(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: file
      ? { Accept: 'application/json', 'Content-Type': file.type || 'application/octet-stream' }
      : init.body === undefined || isForm
        ? { Accept: 'application/json' }
        : { 'Content-Type': 'application/json' },
    body:
      file ?? (init.body instanceof FormData ? init.body : init.body === undefined ? null : JSON.stringify(init.body)),
    credentials: 'same-origin',
  });
  const json: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const parsed = z.safeParse(schema, json);
    if (parsed.success) return { ok: true, data: parsed.data };
    return {
      ok: false,
      status: response.status,
      error: 'Unexpected answer from the server',
      fields: {},
      retryAfterSeconds: null,
    };
  }
  const error = apiErrorSchema.safeParse(json);
  const retryAfterSeconds = retryAfterOf(response);
  return error.success
    ? { ok: false, status: response.status, error: error.data.error, fields: error.data.fields, retryAfterSeconds }
    : {
        ok: false,
        status: response.status,
        error: `Request failed (${response.status})`,
        fields: {},
        retryAfterSeconds,
      };
}
