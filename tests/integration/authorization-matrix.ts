/**
 * The authorization matrix: every route of the access table (src/app/route-access.ts) × the four
 * callers, with the answer each one gets. Every request is valid apart from who sends it, and its
 * path names agent A's own resources (A's slug, estimate, offers, lead, image), so a cell shows what
 * a caller can do with A's things. What the product does:
 * - signed out: 401 "Please log in" on every agent and admin route, before any handler runs;
 * - agent B (and an admin) on A's lead through the agent routes: 404 "Lead not found", as for a lead
 *   that does not exist; on the agent routes without an id each caller gets their own data, never A's;
 * - agents on admin routes: 403; an admin reads and acts on A's leads and account there;
 * - public routes: the same answer for everyone (A's estimate, offers and page are public by their
 *   unguessable uuid or slug).
 * authorization-matrix.test.ts runs every cell on both backends.
 * The rows live by area under authorization-matrix/ (public site, accounts, agent, admin, webhooks), with the
 * cells' shape, the parties and the suite beside them; this module puts the rows together in that
 * order and is what the tests import.
 */
import { ACCOUNT_ROWS } from './authorization-matrix/account-rows.ts';
import { ADMIN_ROWS } from './authorization-matrix/admin-rows.ts';
import { AGENT_ROWS } from './authorization-matrix/agent-rows.ts';
import type { MatrixRow } from './authorization-matrix/cells.ts';
import { PUBLIC_SITE_ROWS } from './authorization-matrix/public-site-rows.ts';
import { WEBHOOK_ROWS } from './authorization-matrix/webhook-rows.ts';

export {
  CALLERS,
  partyOf,
  type Caller,
  type CellRequest,
  type Expect,
  type MatrixRow,
  type Party,
  type World,
} from './authorization-matrix/cells.ts';
export { makeParty, PASSWORD } from './authorization-matrix/party.ts';
export { useMatrixSuite, type MatrixSuite } from './authorization-matrix/suite.ts';

export const MATRIX: Record<string, MatrixRow> = {
  ...PUBLIC_SITE_ROWS,
  ...ACCOUNT_ROWS,
  ...AGENT_ROWS,
  ...ADMIN_ROWS,
  ...WEBHOOK_ROWS,
};
