import * as z from 'zod/mini';
import { callApi, type ApiResult } from '../../../ui/api-client.ts';
import { isProfileComplete } from './public-agent.ts';
import { sessionAgentSchema, type SessionAgent } from '../../auth/public/auth-schemas.ts';

export const NETWORK_ERROR = 'Network error. Please try again later.';

const okSchema = z.object({ success: z.literal(true), message: z.optional(z.string()) });

/** POSTs an account form; network failures resolve as an error with `network: true`. */
export async function postAccount(
  path: string,
  body: unknown,
): Promise<ApiResult<z.output<typeof okSchema>> | { ok: false; network: true }> {
  try {
    return await callApi(path, okSchema, { body });
  } catch {
    return { ok: false, network: true };
  }
}

const meSchema = z.object({ success: z.literal(true), agent: sessionAgentSchema });

/** The signed-in agent, null when nobody is signed in; rejects on network failure. */
export async function currentAgent(): Promise<SessionAgent | null> {
  const result = await callApi('/api/auth/me', meSchema);
  if (result.ok) return result.data.agent;
  if (result.status === 401 || result.status === 403) return null;
  throw new Error(result.error);
}

/** Where a signed-in agent belongs: admins in /admin, other agents in /dashboard. */
export const homeOf = (agent: SessionAgent): '/admin' | '/dashboard' => (agent.is_admin ? '/admin' : '/dashboard');

/**
 * Where the login form sends an agent: back to the signed-in screen that sent them to log in
 * (`next`, a path of an area they may enter; nothing else, so a link cannot send them off-site), else
 * an agent whose calculator page still lacks profile fields to their profile, else their home.
 */
export function destinationAfterLogin(agent: SessionAgent, next: string | null): string {
  const area = agent.is_admin ? /^\/(dashboard|admin)(\/[a-z-]*)?$/ : /^\/dashboard(\/[a-z-]*)?$/;
  if (next !== null && area.test(next)) return next;
  if (!agent.is_admin && !isProfileComplete(agent)) return '/dashboard/profile';
  return homeOf(agent);
}

export async function logout(): Promise<void> {
  await fetch('/api/auth/logout', { method: 'POST', credentials: 'same-origin' }).catch(() => undefined);
  window.location.assign('/auth');
}

/** The token of an e-mailed link (?token=…), or null. */
export const tokenFromUrl = (): string | null => new URLSearchParams(window.location.search).get('token');

export const REDIRECT_DELAY_MS = 3000;
