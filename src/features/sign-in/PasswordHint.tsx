import { MIN_NEW_PASSWORD_LENGTH, passwordLength } from '../auth/public/auth-schemas.ts';

/**
 * What makes a good new password, under its field: length only (no composition rules, decision
 * 0047) and a live count of the characters typed. The list of common passwords stays on the server,
 * which names the reason when it refuses one.
 */
export function PasswordHint({ password }: { password: string }) {
  const length = passwordLength(password);
  const enough = length >= MIN_NEW_PASSWORD_LENGTH;
  return (
    <>
      At least {MIN_NEW_PASSWORD_LENGTH} characters. A few unrelated words make a strong password that is easy to
      remember; symbols and capitals are not needed. Common passwords are refused.{' '}
      <span className={enough ? 'password-count password-count-enough' : 'password-count'}>
        {length} of {MIN_NEW_PASSWORD_LENGTH} characters{enough ? ': long enough' : ''}
      </span>
    </>
  );
}
