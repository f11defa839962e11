/**
 * Server state of the signed-in areas through TanStack Query: one client with the areas' defaults,
 * and query and mutation functions over callApi that throw an ApiError for an error answer, so
 * screens get loading, error-with-Retry and invalidation after a save from the library.
 */
import { QueryClient } from '@tanstack/react-query';
import type * as z from 'zod/mini';
import { callApi } from '../../../ui/api-client.ts';

/** An error answer of the API: its status, message and per-field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Signed out (or the session ended): the frame sends the visitor to /auth. */
export const isSignedOut = (error: unknown): boolean => error instanceof ApiError && error.status === 401;

export function createAccountQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // One retry for a network hiccup or a 5xx; an answer about the request itself (401, 404,
        // 400) will not change by asking again.
        retry: (failures, error) => failures < 1 && !(error instanceof ApiError && error.status < 500),
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });
}

/** GETs `path` and parses it with `schema`; an error answer throws an ApiError, a network failure rejects. */
export async function getJson<Schema extends z.core.$ZodType>(path: string, schema: Schema): Promise<z.output<Schema>> {
  const result = await callApi(path, schema);
  if (!result.ok) throw new ApiError(result.status, result.error, result.fields);
  return result.data;
}

/** Sends `body` as JSON with `method` and parses the answer; an error answer throws an ApiError. */
export async function sendJson<Schema extends z.core.$ZodType>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  schema: Schema,
  body?: unknown,
): Promise<z.output<Schema>> {
  const result = await callApi(path, schema, { method, body });
  if (!result.ok) throw new ApiError(result.status, result.error, result.fields);
  return result.data;
}
