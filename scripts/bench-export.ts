// npm run bench:export — the admin's CSV export (GET /api/admin/leads/export.csv) of 25,000, 50,000
// and 100,000 leads from the API in its own process on a real PostgreSQL (Neon driver): MB/s and
// the API process's peak RSS while each streams. The export reads and writes a page at a time, so
// the peak RSS should stay about flat as the export grows.
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { openNeon } from '../src/server/db.ts';
import { migrate } from '../src/server/migrate.ts';
import { SESSION_COOKIE, signSession } from '../src/features/auth/sessions.server.ts';
import { start as startPostgres } from '../tests/support/postgres.ts';
import { benchAuth } from './bench/agent-leads.ts';
import { startChild } from './bench/children.ts';

/** Three agents with 25k, 25k and 50k leads: one agent, the larger one, and all are the three sizes. */
const AGENT_LEADS = [25_000, 25_000, 50_000];
const RSS_SAMPLE_MS = 10;

/** The process's resident set now, in MB (Linux /proc). */
const rssMb = (pid: number): number => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match?.[1] ? Number(match[1]) / 1024 : NaN;
};

const postgres = await startPostgres();
const children: ChildProcess[] = [];
try {
  const proxy = await startChild('scripts/bench/ws-proxy-server.ts', {});
  children.push(proxy.child);
  const db = openNeon(postgres.connectionString, { wsProxy: proxy.url });
  await migrate(db);
  const agents = await db.query<{ id: number; session_version: number }>(
    `INSERT INTO agents (first_name, last_name, email, slug, status, brokerage, is_admin)
     SELECT 'Export', 'Agent' || a, 'export.agent' || a || '@example.com', 'exportagent' || a, 'active', 'Bench Realty', a = 1
       FROM generate_series(1, $1) AS a
     RETURNING id, session_version`,
    [AGENT_LEADS.length],
  );
  for (const [index, count] of AGENT_LEADS.entries()) {
    await db.query(
      `INSERT INTO leads (agent_id, first_name, last_name, email, phone, address, source, consent_marketing, created_at)
       SELECT $1, 'Visitor', 'Lead' || n, 'visitor' || n || '@example.com', '516555' || lpad((n % 10000)::text, 4, '0'),
              n || ' Main Street, Garden City, NY', 'calculator', true, now() - n * interval '1 second'
         FROM generate_series(1, $2) AS n`,
      [agents[index]?.id, count],
    );
  }
  await db.exec('VACUUM ANALYZE leads');
  await db.close();
  const [admin, , large] = agents;
  if (!admin || !large) throw new Error('bench: no agents');
  const auth = benchAuth();
  const cookie = `${SESSION_COOKIE}=${await signSession(auth.config, { agentId: admin.id, version: admin.session_version })}`;

  const api = await startChild('scripts/bench/api-server.ts', {
    DATABASE_URL: postgres.connectionString,
    DATABASE_WS_PROXY: proxy.url,
    SESSION_SECRET: auth.secret,
  });
  children.push(api.child);
  const pid = api.child.pid;
  if (pid === undefined) throw new Error('bench: no API pid');

  const sizes: [string, string][] = [
    ['25k', `?agent=${admin.id}`],
    ['50k', `?agent=${large.id}`],
    ['100k', ''],
  ];
  console.log(`API process RSS before: ${rssMb(pid).toFixed(1)} MB`);
  console.log(
    [
      'leads'.padEnd(6),
      'rows'.padStart(8),
      'MB'.padStart(8),
      's'.padStart(7),
      'MB/s'.padStart(7),
      'peak RSS MB'.padStart(12),
    ].join(' '),
  );
  for (const [label, query] of sizes) {
    let peak = rssMb(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), RSS_SAMPLE_MS);
    const started = performance.now();
    const response = await fetch(`${api.url}/api/admin/leads/export.csv${query}`, { headers: { cookie } });
    if (!response.ok || !response.body) throw new Error(`export ${label}: ${response.status}`);
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const mb = bytes / 1024 / 1024;
    console.log(
      [
        label.padEnd(6),
        String(lines - 1).padStart(8),
        mb.toFixed(1).padStart(8),
        seconds.toFixed(2).padStart(7),
        (mb / seconds).toFixed(1).padStart(7),
        peak.toFixed(1).padStart(12),
      ].join(' '),
    );
  }
} finally {
  for (const child of children) child.kill();
  await postgres.stop();
}
