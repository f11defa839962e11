/**
 * Per-IP rate limits: which client a request counts against (its address, an IPv6 client by its
 * /64), and none for a client on this machine. Used by every route a visitor can call.
 */
import { clientKey } from './client-key.server.ts';
import { LIMITS, rateCheck, type RateCheck, type RateLimit } from './rate-limit.server.ts';

/**
 * A client on this machine: a loopback address, or no address at all (the app served in-process
 * without a socket, as the local site server does). Per-IP limits would put every such client (the
 * developer, the e2e browser, a local proxy) in one bucket, so only the per-e-mail limits apply to
 * them. On Netlify every request has its client's address (AppDeps.clientIp).
 */
export const isLocalClient = (ip: string): boolean => ip === 'unknown' || ip === '::1' || /^(::ffff:)?127\./.test(ip);

/**
 * The per-IP counter of `action`, none for a client on this machine (see isLocalClient). An IPv6
 * client is counted by its /64 (clientKey).
 */
export const perIpCheck = (ip: string, limit: RateLimit, action: string): RateCheck[] =>
  isLocalClient(ip) ? [] : [rateCheck(limit, `${action}:ip:${clientKey(ip)}`)];

/**
 * The login counter of one account from one client (finding 7): a stranger's guesses slow down only
 * the stranger, so the owner still logs in from their own address. Clients on this machine share
 * one counter per account (they have no address of their own to tell them apart).
 */
export const loginAccountClientCheck = (email: string, ip: string): RateCheck =>
  rateCheck(LIMITS.loginPerAccountClient, `login:email-client:${email}:${isLocalClient(ip) ? 'local' : ip}`);
