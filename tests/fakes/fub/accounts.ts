/**
 * The fake Follow Up Boss's accounts and authentication: accounts with their API keys, HTTP Basic
 * with the key as user name (the 401 FUB answers without it), expired accounts, and the
 * X-System / X-System-Key pairs that count as a registered system.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { header } from '../loopback-server.ts';
import type { FubAccount, FubAccountInput } from './model.ts';

export const AUTH_REQUIRED =
  'Authentication is required. Use Basic HTTP Authentication with API Key as username and blank password, or use Bearer token authentication. See https://docs.followupboss.com/reference/authentication';

/** The key of `Authorization: Basic base64(key:password)`, any password. */
export function basicKey(headers: IncomingHttpHeaders): string | null {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header(headers, 'authorization') ?? '');
  if (!basic) return null;
  const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? decoded : decoded.slice(0, colon);
}

export interface FubAccounts {
  add: (input?: FubAccountInput) => FubAccount;
  get(apiKey: string): FubAccount | undefined;
  has(apiKey: string): boolean;
  /** The account answers 403 from now on, except to POST /v1/events. */
  expire(apiKey: string): void;
  isExpired(apiKey: string): boolean;
  registerSystem(name: string, key: string): void;
  /** Whether the request names a registered system (X-System and X-System-Key). */
  registered(headers: IncomingHttpHeaders): boolean;
  /** Undoes expiry (accounts and registered systems stay). */
  reset(): void;
}

/** `onAdd` sees each new account (the fake keeps its people by key). */
export function fubAccounts(onAdd: (account: FubAccount) => void): FubAccounts {
  const accounts = new Map<string, FubAccount>();
  const expired = new Set<string>();
  const systems = new Set<string>();
  let nextAccountId = 1_000_001;

  function addAccount(input: FubAccountInput = {}): FubAccount {
    const id = input.account?.id ?? nextAccountId++;
    const domain = input.account?.domain ?? `account${id}`;
    const account: FubAccount = {
      apiKey: input.apiKey ?? `fka_${randomBytes(16).toString('hex')}`,
      account: {
        id,
        domain,
        name: input.account?.name === undefined ? `Account ${id} Realty` : input.account.name,
        owner: {
          name: input.account?.owner?.name ?? 'Olivia Owner',
          email: input.account?.owner?.email ?? `owner@${domain}.example.com`,
        },
      },
      user: {
        id: input.user?.id ?? 1,
        name: input.user?.name ?? 'Alex Agent',
        email: input.user?.email ?? `agent@${domain}.example.com`,
      },
    };
    if (accounts.has(account.apiKey)) throw new Error('An account with this API key exists already');
    accounts.set(account.apiKey, account);
    onAdd(account);
    return account;
  }

  const registered = (headers: IncomingHttpHeaders): boolean => {
    const name = header(headers, 'x-system');
    const key = header(headers, 'x-system-key');
    return name !== undefined && key !== undefined && systems.has(`${name}\n${key}`);
  };

  return {
    add: addAccount,
    get: (apiKey) => accounts.get(apiKey),
    has: (apiKey) => accounts.has(apiKey),
    expire(apiKey) {
      if (!accounts.has(apiKey)) throw new Error('No account with this API key');
      expired.add(apiKey);
    },
    isExpired: (apiKey) => expired.has(apiKey),
    registerSystem(name, key) {
      systems.add(`${name}\n${key}`);
    },
    registered,
    reset() {
      expired.clear();
    },
  };
}
