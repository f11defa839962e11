/**
 * One database and one API server per test file and backend: call useApiSuite(backend) inside a
 * describe block; it opens them in beforeAll and closes them in afterAll. Unexpected errors the API
 * logs are collected, and every test fails if one was logged that it did not expect.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import * as z from 'zod';
import type { Db } from '../../src/platform/db.ts';
import { openTestDatabase, type Backend, type TestDatabase } from './backends.ts';
import { startApi, type RunningApi } from './http.ts';

export interface ApiSuite {
  readonly test: TestDatabase;
  readonly db: Db;
  readonly api: RunningApi;
  /** Errors passed to the app's logError since the last test began. */
  readonly logged: { error: unknown; method: string; path: string }[];
}

export function useApiSuite(backend: Backend, label: string): ApiSuite {
  let test: TestDatabase | undefined;
  let api: RunningApi | undefined;
  const logged: ApiSuite['logged'] = [];
  beforeAll(async () => {
    test = await openTestDatabase(backend, label);
    api = await startApi({
      db: test.db,
      logError: (error, request) => logged.push({ error, method: request.method, path: new URL(request.url).pathname }),
    });
  });
  afterEach(() => {
    const unexpected = logged.splice(0);
    expect(unexpected, 'the API logged an unexpected error').toEqual([]);
  });
  afterAll(async () => {
    await api?.close();
    await test?.close();
  });
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useApiSuite: used before beforeAll ran');
    return value;
  };
  return {
    get test() {
      return ready(test);
    },
    get db() {
      return ready(test).db;
    },
    get api() {
      return ready(api);
    },
    logged,
  };
}

/** The API's one error shape, and nothing more. */
export const apiErrorSchema = z.strictObject({
  success: z.literal(false),
  error: z.string().min(1),
  fields: z.record(z.string(), z.string()),
});

export type ApiError = z.output<typeof apiErrorSchema>;

async function readJson(response: Response, status: number): Promise<unknown> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  const body: unknown = JSON.parse(text);
  return body;
}

/**
 * Asserts the API's one error shape: exact status, JSON, { success: false, error, fields } and
 * nothing else; returns the body for further checks.
 */
export async function expectError(response: Response, status: number, error?: string): Promise<ApiError> {
  const body = apiErrorSchema.parse(await readJson(response, status));
  if (error !== undefined) expect(body.error).toBe(error);
  return body;
}

/**
 * A rate limit's answer: 429, Retry-After in seconds within the window, and the API's error shape
 * telling the same wait in minutes. Returns the body.
 */
export async function expectTooMany(response: Response, windowSeconds: number): Promise<ApiError> {
  expect(response.status, await response.clone().text()).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  const minutes = Math.ceil(retryAfter / 60);
  return expectError(
    response,
    429,
    `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
  );
}

/** A 400 about one field: `error` is the field's message and `fields` names only that field. */
export async function expectFieldError(response: Response, field: string, message: string): Promise<void> {
  const body = await expectError(response, 400, message);
  expect(body.fields).toEqual({ [field]: message });
}

/** Asserts the status and that the JSON body has exactly the shape of `schema`; returns it parsed. */
export async function expectJson<Schema extends z.core.$ZodType>(
  response: Response,
  status: number,
  schema: Schema,
): Promise<z.output<Schema>> {
  return z.parse(schema, await readJson(response, status));
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Vitest's asymmetric matchers are typed `any`; these give them a type the lint accepts.
export const anyNumber = (): unknown => expect.any(Number);
export const anyString = (): unknown => expect.any(String);
export const matching = (pattern: RegExp): unknown => expect.stringMatching(pattern);
