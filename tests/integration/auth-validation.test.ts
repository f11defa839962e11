/**
 * Every validation message of the spec on the account calls, over HTTP on both backends: sign-up,
 * login, forgot-password, resend-verification, reset-password and verify-email.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../support/backends.ts';
import { expectError, expectJson } from '../support/api-suite.ts';
import { agentByEmail, messageResponse, SIGNED_UP } from '../support/account-flows.ts';
import { signupBody, useAuthSuite } from '../support/auth-suite.ts';

describe.each(BACKENDS)('agent accounts on %s', (backend) => {
  const suite = useAuthSuite(backend, 'auth');
  describe('validation messages of the spec', () => {
    const signup = (body: Record<string, unknown>) => suite.client().post('/api/auth/signup', body);
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['first name missing', { first_name: '' }, 'first_name', 'First name is required'],
      ['first name blank', { first_name: '   ' }, 'first_name', 'First name is required'],
      ['first name absent', { first_name: undefined }, 'first_name', 'First name is required'],
      ['last name missing', { last_name: '' }, 'last_name', 'Last name is required'],
      ['e-mail missing', { email: '' }, 'email', 'Email is required'],
      ['e-mail absent', { email: undefined }, 'email', 'Email is required'],
      ['e-mail not an address', { email: 'pat@' }, 'email', 'Email is invalid'],
      ['e-mail too long', { email: `${'a'.repeat(250)}@example.com` }, 'email', 'Email is invalid'],
      ['password missing', { password: '' }, 'password', 'Password is required'],
      ['password absent', { password: undefined }, 'password', 'Password is required'],
      ['password short', { password: '12345678901234' }, 'password', 'Password must be at least 15 characters'],
      ['password 129 characters', { password: 'p'.repeat(129) }, 'password', 'Password must be at most 128 characters'],
      [
        'password on the list of common ones (decision 0047)',
        { password: 'qwertyuiop12345' },
        'password',
        'This password is on the list of common passwords that attackers try first. Choose another: a few unrelated words make a strong one.',
      ],
      [
        'password made of the name',
        { first_name: 'Marguerite', last_name: 'Okonkwo', password: 'MargueriteOkonkwo1' },
        'password',
        'This password is made of your name, e-mail address or page address, which attackers try first. Choose another: a few unrelated words make a strong one.',
      ],
      ['slug missing', { slug: '' }, 'slug', 'Calculator address is required'],
      [
        'slug with a dash',
        { slug: 'pat-quinn' },
        'slug',
        'Calculator address can only contain lowercase letters and numbers',
      ],
      [
        'slug with an accent',
        { slug: 'zoë' },
        'slug',
        'Calculator address can only contain lowercase letters and numbers',
      ],
      ['phone not a number', { phone: '555-CALL-NOW' }, 'phone', 'Phone number is invalid'],
      [
        'first name too long',
        { first_name: 'x'.repeat(101) },
        'first_name',
        'First name must be at most 100 characters',
      ],
    ];
    it.each(cases)('sign-up: %s', async (_label, override, field, message) => {
      const response = await signup({ ...signupBody(), ...override });
      const body = await expectError(response, 400, message);
      expect(body.fields[field]).toBe(message);
    });

    it('sign-up: an empty body names every required field', async () => {
      const body = await expectError(await signup({}), 400, 'First name is required');
      expect(body.fields).toEqual({
        first_name: 'First name is required',
        last_name: 'Last name is required',
        email: 'Email is required',
        password: 'Password is required',
        slug: 'Calculator address is required',
      });
    });

    it('sign-up: phone empty or absent is stored as null; 129-character password writes nothing', async () => {
      const withEmpty = signupBody({ phone: '' });
      await expectJson(await signup(withEmpty), 201, messageResponse(SIGNED_UP));
      expect((await agentByEmail(suite, withEmpty.email))?.phone).toBeNull();
      const long = signupBody({ password: 'p'.repeat(129) });
      await expectError(await signup(long), 400, 'Password must be at most 128 characters');
      expect(await agentByEmail(suite, long.email)).toBeUndefined();
    });

    const login = (body: Record<string, unknown>) => suite.client().post('/api/auth/login', body);
    it.each([
      ['e-mail missing', { email: '', password: 'whatever' }, 'email', 'Email is required'],
      ['e-mail invalid', { email: 'nope', password: 'whatever' }, 'email', 'Email is invalid'],
      ['password missing', { email: 'pat@example.com', password: '' }, 'password', 'Password is required'],
      [
        'password 129 characters',
        { email: 'pat@example.com', password: 'p'.repeat(129) },
        'password',
        'Invalid email or password',
      ],
    ])('login: %s', async (_label, body, field, message) => {
      const response = await expectError(await login(body), 400, message);
      expect(response.fields[field]).toBe(message);
    });

    it.each(['/api/auth/forgot-password', '/api/auth/resend-verification'])(
      '%s: e-mail required and address-shaped',
      async (path) => {
        const missing = await expectError(await suite.client().post(path, { email: '' }), 400);
        expect(missing.fields).toEqual({ email: 'Please enter your email address' });
        const invalid = await expectError(await suite.client().post(path, { email: 'not-an-email' }), 400);
        expect(invalid.fields).toEqual({ email: 'Email is invalid' });
      },
    );

    it('reset-password: fields required, at least 15, at most 128, token shaped', async () => {
      const token = 'A'.repeat(43);
      const reset = (body: Record<string, unknown>) => suite.client().post('/api/auth/reset-password', body);
      expect((await expectError(await reset({ token, password: '' }), 400)).fields).toEqual({
        password: 'Please fill in all fields',
      });
      expect((await expectError(await reset({ token }), 400)).fields).toEqual({
        password: 'Please fill in all fields',
      });
      expect((await expectError(await reset({ token, password: 'p4ssphr4se-14c' }), 400)).fields).toEqual({
        password: 'Password must be at least 15 characters long',
      });
      expect((await expectError(await reset({ token, password: 'p'.repeat(129) }), 400)).fields).toEqual({
        password: 'Password must be at most 128 characters',
      });
      expect(
        (await expectError(await reset({ token: 'short', password: 'a password long enough' }), 400)).fields,
      ).toEqual({
        token: 'Invalid link',
      });
      expect((await expectError(await reset({ password: 'a password long enough' }), 400)).fields).toEqual({
        token: 'Invalid link',
      });
    });

    it('verify-email: a missing or malformed token is "Invalid link"', async () => {
      const verify = (body: Record<string, unknown>) => suite.client().post('/api/auth/verify-email', body);
      for (const body of [
        {},
        { token: '' },
        { token: 'x'.repeat(42) },
        { token: `${'A'.repeat(42)}=` },
        { token: 5 },
      ]) {
        expect((await expectError(await verify(body), 400, 'Invalid link')).fields).toEqual({ token: 'Invalid link' });
      }
    });
  });
});
