/**
 * One database and one API server per test file and backend: call useApiSuite(backend) inside a
 * describe block; it opens them in beforeAll and closes them in afterAll. Unexpected errors the API
 * logs are collected, and every test fails if one was logged that it did not expect.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Db } from '../../src/server/db.ts';
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

export interface ApiError {
  success: false;
  error: string;
  fields: Record<string, string>;
}

/**
 * Asserts the API's one error shape: exact status, JSON, { success: false, error, fields } and
 * nothing else; returns the body for further checks.
 */
export async function expectError(response: Response, status: number, error?: string): Promise<ApiError> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  const body = JSON.parse(text) as ApiError;
  expect(Object.keys(body).sort()).toEqual(['error', 'fields', 'success']);
  expect(body.success).toBe(false);
  expect(typeof body.error).toBe('string');
  expect(body.error).not.toBe('');
  expect(typeof body.fields).toBe('object');
  expect(body.fields).not.toBeNull();
  expect(Array.isArray(body.fields)).toBe(false);
  if (error !== undefined) expect(body.error).toBe(error);
  return body;
}

/** A 400 about one field: `error` is the field's message and `fields` names only that field. */
export async function expectFieldError(response: Response, field: string, message: string): Promise<void> {
  const body = await expectError(response, 400, message);
  expect(body.fields).toEqual({ [field]: message });
}

export async function expectJson<T = Record<string, unknown>>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  return JSON.parse(text) as T;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
