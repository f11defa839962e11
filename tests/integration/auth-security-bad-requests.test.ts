/**
 * Bad bodies and methods on the account calls, over HTTP on both backends: malformed JSON,
 * non-objects, wrong media types, bodies too large (chunked too), 405s with Allow, and wrong types
 * answered as field errors.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectError } from '../support/api-suite.ts';
import { IP_HEADER, randomIp, signupBody, useAuthSuite } from '../support/auth-suite.ts';
import { rawRequest } from '../support/http.ts';

const POST_PATHS = [
  '/api/auth/signup',
  '/api/auth/verify-email',
  '/api/auth/login',
  '/api/auth/resend-verification',
  '/api/auth/forgot-password',
  '/api/auth/reset-password',
] as const;

describe.each(BACKENDS)('account security on %s', (backend) => {
  const suite = useAuthSuite(backend, 'authsec');
  describe('bad requests', () => {
    const sendRaw = (path: string, body: string, contentType?: string) =>
      suite.api.fetch(path, {
        method: 'POST',
        headers: { ...(contentType ? { 'content-type': contentType } : {}), [IP_HEADER]: randomIp() },
        body,
      });

    it.each(POST_PATHS)('%s: malformed JSON, non-objects, 415, 413, chunked 413', async (path) => {
      await expectError(
        await sendRaw(path, '{"email":', 'application/json'),
        400,
        'The request body is not valid JSON',
      );
      await expectError(await sendRaw(path, '', 'application/json'), 400, 'The request body is not valid JSON');
      await expectError(await sendRaw(path, '[]', 'application/json'), 400, 'The request body must be a JSON object');
      await expectError(await sendRaw(path, 'null', 'application/json'), 400, 'The request body must be a JSON object');
      await expectError(await sendRaw(path, '{}', 'text/plain'), 415);
      await expectError(await sendRaw(path, 'email=a@b.co', 'application/x-www-form-urlencoded'), 415);
      await expectError(
        await sendRaw(path, JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(70 * 1024) }), 'application/json'),
        413,
        'The request body is larger than 64 KB',
      );
      const chunked = await rawRequest(suite.api.origin, path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: Array.from({ length: 10 }, () => `"${'x'.repeat(8 * 1024)}"`),
      });
      expect(chunked.status).toBe(413);
    });

    it.each([...POST_PATHS, '/api/auth/logout', '/api/auth/logout-everywhere'])(
      '%s: other methods answer 405 with Allow: POST',
      async (path) => {
        for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
          const response = await suite.api.fetch(path, { method });
          expect(response.headers.get('allow')).toBe('POST');
          await expectError(response, 405, `${method} is not allowed here; use POST`);
        }
      },
    );

    it('/api/auth/me: other methods answer 405 with Allow: GET, HEAD', async () => {
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const response = await suite.api.fetch('/api/auth/me', { method });
        expect(response.headers.get('allow')).toBe('GET, HEAD');
        await expectError(response, 405, `${method} is not allowed here; use GET`);
      }
    });

    it('wrong types are field errors, never 500', async () => {
      const typed = await expectError(
        await suite.client().post('/api/auth/login', { email: ['a@b.co'], password: { x: 1 } }),
        400,
      );
      expect(typed.fields).toEqual({ email: 'Email is required', password: 'Password is required' });
      const signup = await expectError(
        await suite.client().post('/api/auth/signup', { ...signupBody(), phone: 5, brokerage: 7 }),
        400,
      );
      expect(signup.fields).toEqual({ phone: 'Phone must be text', brokerage: 'Brokerage must be text' });
    });
  });
});
