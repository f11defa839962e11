// The setup bench-api and bench-load share: a throwaway PostgreSQL 15 reached through the Neon
// driver and the WebSocket proxy (in its own process), migrated, seeded with the featured agent and
// ten agents with many leads (agent-leads.ts), and the API started on it in a child process.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthConfig } from '../../src/features/auth/public/sessions.server.ts';
import { openNeon, type Db } from '../../src/platform/db.ts';
import { parseEnv } from '../../src/platform/env.ts';
import { featuredAgentFrom, type FeaturedAgent } from '../../src/platform/featured-agent.ts';
import { migrate } from '../../src/platform/migrate.ts';
import { seed } from '../../src/app/seed.ts';
import { start as startPostgres } from '../../tests/support/postgres.ts';
import { agentWithLeads, benchAuth } from './agent-leads.ts';
import { startChild, startWorker } from './children.ts';

export interface PostgresBench {
  /** The database, from this process, through the Neon driver. */
  db: Db;
  auth: { secret: string; config: AuthConfig };
  featured: FeaturedAgent;
  /** The Cookie headers of the agent with many leads (`cookie`, `slug`) and of an admin. */
  sessions: { cookie: string; adminCookie: string; slug: string };
  /** The API in its own process on the database, with `env` on top of the database's. */
  startApi(env?: Record<string, string>): Promise<{ child: ChildProcess; url: string }>;
  /** A child printing `LISTENING <address>` (children.ts), stopped with the rest. */
  startChild(script: string, env?: Record<string, string>): Promise<{ child: ChildProcess; url: string }>;
  /** A worker on the database printing `READY` (children.ts), stopped with the rest. */
  startWorker(script: string, env?: Record<string, string>): Promise<ChildProcess>;
  /** Stops the children and the server; the database and its files are gone. */
  stop(): Promise<void>;
}

/** Starts it all; `leadsOfAgent` leads and as many estimates for each of the ten agents. */
export async function startPostgresBench(leadsOfAgent: number): Promise<PostgresBench> {
  const postgres = await startPostgres();
  const children: ChildProcess[] = [];
  // The children's DATA_DIR: the outbox's files and the local secrets stay out of the repository.
  const dataDir = mkdtempSync(join(tmpdir(), 'nts-bench-'));
  let db: Db | undefined;
  const stop = async () => {
    // While the proxy still runs; a pool broken by a failed run must not keep the server up.
    await db?.close().catch(() => undefined);
    for (const child of children) child.kill();
    rmSync(dataDir, { recursive: true, force: true });
    await postgres.stop();
  };
  try {
    const proxy = await startChild('scripts/bench/ws-proxy-server.ts', {});
    children.push(proxy.child);
    const databaseEnv = { DATABASE_URL: postgres.connectionString, DATABASE_WS_PROXY: proxy.url, DATA_DIR: dataDir };
    db = openNeon(postgres.connectionString, { wsProxy: proxy.url });
    await migrate(db);
    const featured = featuredAgentFrom(parseEnv({}));
    await seed(db, featured);
    const auth = benchAuth();
    const sessions = await agentWithLeads(db, auth.config, leadsOfAgent);
    const server = async (script: string, env: Record<string, string>) => {
      const started = await startChild(script, env);
      children.push(started.child);
      return started;
    };
    return {
      db,
      auth,
      featured,
      sessions,
      startApi: (env = {}) =>
        server('scripts/bench/api-server.ts', { ...databaseEnv, SESSION_SECRET: auth.secret, ...env }),
      startChild: (script, env = {}) => server(script, env),
      async startWorker(script, env = {}) {
        const child = await startWorker(script, { ...databaseEnv, ...env });
        children.push(child);
        return child;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
