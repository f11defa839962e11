import { describe, expect, it } from 'vitest';
import { resetPasswordSchema, signupSchema } from './public/auth-schemas.ts';
import {
  COMMON_PASSWORD_MESSAGE,
  PERSONAL_PASSWORD_MESSAGE,
  PREDICTABLE_PASSWORD_MESSAGE,
  weakPasswordProblem,
} from './public/common-passwords.server.ts';

const owner = { email: 'dana.smith@example.com', first_name: 'Dana', last_name: 'Smith', slug: 'danasmith' };

describe('new passwords (decision 0047)', () => {
  it('refuses listed passwords, whatever their case', () => {
    expect(weakPasswordProblem('1qaz2wsx3edc4rfv')).toBe(COMMON_PASSWORD_MESSAGE);
    expect(weakPasswordProblem('PASSWORDSTANDARD')).toBe(COMMON_PASSWORD_MESSAGE);
  });

  it('refuses runs and repeats of a few characters', () => {
    for (const password of [
      'aaaaaaaaaaaaaaa',
      'passwordpassword',
      '123456789012345',
      'abcdefghijklmnop',
      'ponmlkjihgfedcba',
    ])
      expect(weakPasswordProblem(password), password).toBe(PREDICTABLE_PASSWORD_MESSAGE);
  });

  it("refuses the owner's own words, with digits added or said again", () => {
    for (const password of ['dana.smith@example.com', 'Dana Smith 2026!!', 'danasmithdanasmith', 'smith-dana-12345'])
      expect(weakPasswordProblem(password, owner), password).toBe(PERSONAL_PASSWORD_MESSAGE);
  });

  it('takes a long password of unrelated words, with no composition rule', () => {
    expect(weakPasswordProblem('copper kettle under rain', owner)).toBeUndefined();
    expect(weakPasswordProblem('dana likes the harbor at dawn', owner)).toBeUndefined();
  });

  it('asks 15 characters of a new password, counted as code points, in the spec’s message shapes', () => {
    const signup = { first_name: 'Dana', last_name: 'Smith', email: 'dana@example.com', slug: 'dana' };
    const passwordError = (result: {
      success: boolean;
      error?: { issues: { path: PropertyKey[]; message: string }[] };
    }) => result.error?.issues.find((issue) => issue.path[0] === 'password')?.message;
    expect(passwordError(signupSchema.safeParse({ ...signup, password: '12345678901234' }))).toBe(
      'Password must be at least 15 characters',
    );
    expect(signupSchema.safeParse({ ...signup, password: '123456789012345' }).success).toBe(true);
    const token = 'A'.repeat(43);
    expect(passwordError(resetPasswordSchema.safeParse({ token, password: 'fourteen chars' }))).toBe(
      'Password must be at least 15 characters long',
    );
    // Seven emoji are seven characters (14 UTF-16 units): too short.
    expect(resetPasswordSchema.safeParse({ token, password: '🏠🏡🏘🏚🏗🏛🏢' }).success).toBe(false);
  });
});
