import { createHash } from 'node:crypto';
import { Pool, neonConfig, types as pgTypes, type PoolClient, type QueryResultRow } from '@neondatabase/serverless';

/** Something SQL can be sent to: the database itself or an open transaction. */
export interface Queryable {
  query<Row>(text: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface Db extends Queryable {
  /** Runs `work` in one transaction: everything commits or nothing does. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Messages sent to the server so far; tests and benchmarks hold endpoints to a budget with it. */
  readonly roundTrips: number;
  readonly kind: 'pglite' | 'neon';
  close(): Promise<void>;
}

// int8 and numeric come back as strings by default; our int8 values are cents (< 2^53) and our
// numerics are small rates, so plain numbers are exact enough and keep both drivers alike.
const INT8_OID = 20;
const NUMERIC_OID = 1700;
export const toNumber = (value: string): number => Number(value);

/**
 * The database could not be reached, or a connection dropped before its answer came: nothing is
 * wrong with the request itself, and the same request may succeed a moment later (the API answers
 * 503 with Retry-After, src/app/api-app.ts). A statement sent just before the drop may still have
 * been committed: only a statement that is safe to repeat may be sent again (see leads.server.ts).
 */
export class DatabaseUnavailable extends Error {
  override readonly name = 'DatabaseUnavailable';
}

/** Attempts of `whenConnectionDrops`: the first, and three more on fresh connections. */
const CONNECTION_ATTEMPTS = 4;
/** The pause before the second attempt; each later one waits four times longer (20, 80, 320 ms). */
const FIRST_PAUSE_MS = 20;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` again when its connection drops under it, at most CONNECTION_ATTEMPTS times in all.
 * `work` must be safe to repeat (a statement that finds its own earlier commit). More than one
 * repeat: the Neon driver pipelines a new connection's startup, password and first query (its
 * default, as production uses it), so a connection is handed out before the server has answered, and
 * when the network drops, every connection then opening fails under its first statement too. And a
 * pause before each repeat: the pool drops a dead idle connection only when its socket's close event
 * has been handled, so a repeat sent at once can be handed another connection of the same drop (CI,
 * 2026-11-27: a visitor refused after three immediate attempts on a loaded machine).
 */
export async function whenConnectionDrops<T>(
  work: () => Promise<T>,
  wait: (ms: number) => Promise<void> = pause,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof DatabaseUnavailable) || attempt >= CONNECTION_ATTEMPTS) throw error;
    }
    await wait(FIRST_PAUSE_MS * 4 ** (attempt - 1));
  }
}

// SQLSTATE class 08 (connection exception) and 57P01-57P03 (the server shutting down, restarting
// or not yet accepting connections), and the socket errors of a network that went away.
const CONNECTION_STATES = /^(08|57P0[123])/;
const NETWORK_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
// node-postgres's own words for a connection that ended under a query or cannot take one.
const CONNECTION_LOST = /^Connection terminated|is not queryable/;

/** A driver failure as DatabaseUnavailable when it is about the connection, else unchanged. */
function connectionFailure(error: unknown): unknown {
  // The driver rejects with the WebSocket's ErrorEvent, not an Error, when the socket cannot open.
  if (!(error instanceof Error)) return new DatabaseUnavailable('The database connection failed', { cause: error });
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (CONNECTION_STATES.test(code) || NETWORK_ERRORS.has(code) || CONNECTION_LOST.test(error.message)) {
    return new DatabaseUnavailable(error.message, { cause: error });
  }
  return error;
}

const rethrow = (error: unknown): never => {
  throw connectionFailure(error);
};

export interface NeonOptions {
  /** Local tests reach a plain PostgreSQL through a WebSocket-to-TCP proxy at this host:port. */
  wsProxy?: string;
}

/**
 * A name for each statement text, so that PostgreSQL parses it once per connection and can keep
 * its plan (protocol-level prepared statements: pg sends Parse only the first time a connection
 * sees the name). Parsing and planning were most of the server's work for the dashboard's larger
 * queries. Every text we send is a constant or built from a fixed set of fragments, so the names
 * stay few. Neon's pooler (PgBouncer 1.22, transaction mode) supports protocol-level prepared
 * statements: https://neon.tech/blog/pgbouncer-the-one-with-prepared-statements
 */
const statementNames = new Map<string, string>();
function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `s${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** A parameterised query as a named statement; one without parameters as simple-protocol text. */
const statement = (text: string, params: readonly unknown[] | undefined) =>
  params ? { name: statementName(text), text, values: [...params] } : { text };

export function openNeon(connectionString: string, options: NeonOptions = {}): Db {
  // Node's own WebSocket (Node 22; Netlify runs functions on the build's NODE_VERSION, 22): the `ws`
  // package would load http, https, tls, net and zlib at every cold start (decision 0026).
  neonConfig.webSocketConstructor = WebSocket;
  const { wsProxy } = options;
  if (wsProxy) {
    neonConfig.wsProxy = (host, port) => `${wsProxy}/v1?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineTLS = false;
    // pipelineConnect stays "password" (the driver's default, what production uses with Neon): the
    // test server takes a cleartext password over the proxy as Neon's proxy does
    // (tests/support/postgres.ts), so a first query costs what it costs in production.
  }
  pgTypes.setTypeParser(INT8_OID, toNumber);
  pgTypes.setTypeParser(NUMERIC_OID, toNumber);
  const pool = new Pool({ connectionString, max: 20 });
  // An idle connection that drops (the network, a restarted pooler, the server ending it) is
  // reported here. The pool has already discarded it and the next query opens a new one; without a
  // listener the 'error' event would end the whole process.
  pool.on('error', () => undefined);
  let roundTrips = 0;
  const onClient = (client: PoolClient): Queryable => ({
    async query<Row>(text: string, params?: readonly unknown[]) {
      roundTrips += 1;
      const result = await client.query<Row & QueryResultRow>(statement(text, params)).catch(rethrow);
      return result.rows;
    },
    async exec(script) {
      roundTrips += 1;
      // Without parameters pg uses the simple protocol, which accepts several statements.
      await client.query(script).catch(rethrow);
    },
  });
  return {
    kind: 'neon',
    get roundTrips() {
      return roundTrips;
    },
    async query<Row>(text: string, params?: readonly unknown[]) {
      roundTrips += 1;
      const result = await pool.query<Row & QueryResultRow>(statement(text, params)).catch(rethrow);
      return result.rows;
    },
    async exec(script) {
      roundTrips += 1;
      await pool.query(script).catch(rethrow);
    },
    async transaction(work) {
      const client = await pool.connect().catch(rethrow);
      const tx = onClient(client);
      try {
        await tx.query('BEGIN');
        const value = await work(tx);
        await tx.query('COMMIT');
        return value;
      } catch (error) {
        await tx.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
