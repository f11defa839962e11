/**
 * The shape of the authorization matrix's cells: the four callers, the world of parties a cell's
 * request names, what a row asks and what each caller must be answered, and the usual answers of a
 * public, an agent and an admin route.
 */
import type { AuthSuite } from '../../support/auth-suite.ts';

export const CALLERS = ['signed out', 'agent A', 'agent B', 'admin'] as const;
export type Caller = (typeof CALLERS)[number];

/** One of the three signed-in people, with what the cells name of theirs. */
export interface Party {
  id: number;
  slug: string;
  email: string;
  first_name: string;
  /** In this party's leads and Follow Up Boss account only: an answer carrying it shows their private data. */
  secret: string;
  leadId: number;
  estimateUuid: string;
  offersUuid: string;
  /** Their profile as GET /api/agents/profile answers it, as the profile form sends it back unchanged. */
  profile: Record<string, string>;
  /** Their settings as GET /api/agents/me/settings answers it. */
  settings: Record<string, unknown>;
}

/** What every cell may name: agent A, agent B and an admin, and the site-wide settings as they are. */
export interface World {
  a: Party;
  b: Party;
  admin: Party;
  /** The stored profile photo of A (content-hashed file name under /api/images/). */
  imageFile: string;
  /** Site-wide settings as the admin's screens read them, to save back unchanged. */
  site: { content: unknown; fees: unknown; seo: unknown; mailgun: Record<string, unknown> };
}

/** A request of a cell: a JSON body, a form, or text of a type. */
export interface CellRequest {
  path: string;
  json?: unknown;
  form?: FormData;
  text?: { body: string; type: string };
}

/** What a cell must answer: the status and, for a success, text the answer must carry. */
export interface Expect {
  status: number;
  /** Text the answer carries (a party's secret: their private data is in it). */
  shows?: (world: World) => string[];
}

export interface MatrixRow {
  /**
   * Makes the cell's own world instead of the shared one: for a route that destroys or changes
   * what other cells read (Clear All, disconnecting the CRM, deleting an agent).
   */
  fresh?: boolean;
  request(world: World, caller: Caller, suite: AuthSuite): CellRequest | Promise<CellRequest>;
  expect: Record<Caller, Expect>;
}

/** The party a caller is (signed out sends what A would). */
export const partyOf = (world: World, caller: Caller): Party =>
  caller === 'agent B' ? world.b : caller === 'admin' ? world.admin : world.a;

export const ok = (status = 200, shows?: Expect['shows']): Expect => ({ status, ...(shows ? { shows } : {}) });

/** A public route: the same answer for everyone. */
export const everyone = (status: number, shows?: Expect['shows']): MatrixRow['expect'] => ({
  'signed out': ok(status, shows),
  'agent A': ok(status, shows),
  'agent B': ok(status, shows),
  admin: ok(status, shows),
});

/** An agent route: 401 signed out; each signed-in caller gets their own answer, carrying `own` of theirs. */
export const signedIn = (status: number, own?: (party: Party) => string): MatrixRow['expect'] => ({
  'signed out': { status: 401 },
  'agent A': ok(status, own && ((w) => [own(w.a)])),
  'agent B': ok(status, own && ((w) => [own(w.b)])),
  admin: ok(status, own && ((w) => [own(w.admin)])),
});
export const secret = (party: Party) => party.secret;
export const email = (party: Party) => party.email;

/** An admin route: 401 signed out, 403 to agents, `status` to the admin (whose answer `shows`). */
export const adminOnly = (status = 200, shows?: Expect['shows']): MatrixRow['expect'] => ({
  'signed out': { status: 401 },
  'agent A': { status: 403 },
  'agent B': { status: 403 },
  admin: ok(status, shows),
});
/** An admin's answer about agent A's leads carries A's secret. */
export const leadsOfA: Expect['shows'] = (w) => [w.a.secret];
