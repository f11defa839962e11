/**
 * The account calls of the specification (section 7, Auth): sign-up, e-mail verification, login,
 * resend-verification, forgot and reset password, the current agent, logout and logout-everywhere;
 * and confirming or undoing a profile e-mail change by its e-mailed link (issue 21, finding 1).
 *
 * Every write and the e-mail it causes are one statement (so both happen or neither does); the
 * e-mail is delivered after the response. No response or log line carries a password, a hash or a
 * token. Forgot-password and resend-verification answer the same whether or not the account exists.
 */
import { apiGroup } from '../../platform/operation.ts';
import { authSetup } from './auth-setup.server.ts';
import { emailChangeOperations } from './email-change-routes.server.ts';
import { passwordOperations } from './password-routes.server.ts';
import { sessionOperations } from './session-routes.server.ts';
import { signupOperations } from './signup-routes.server.ts';

/** The account calls (see above), from what the composition root gives them. */
export const authApi = apiGroup(authSetup, (op) => [
  ...signupOperations(op),
  ...sessionOperations(op),
  ...passwordOperations(op),
  ...emailChangeOperations(op),
]);
