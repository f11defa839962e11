// npm run bench:export — the admin's CSV export (GET /api/admin/leads/export.csv) of 50,000, 100,000
// and 200,000 leads from the API in its own process on a real PostgreSQL (Neon driver), asked for
// page by page as the browser's Export CSV asks (fetchLeadExport, decision 0029): total time and
// MB, pages, the largest and slowest page against Netlify's bounds (6 MB an answer, 60 s a run),
// the last page's time against the first's (keyset: about 1 however deep), and the API process's
// peak RSS (a page at a time: about flat as the export grows).
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { openNeon } from '../src/platform/db.ts';
import { migrate } from '../src/platform/migrate.ts';
import { SESSION_COOKIE, signSession } from '../src/features/auth/public/sessions.server.ts';
import { fetchLeadExport, LEAD_EXPORT } from '../src/features/leads/public/lead-export.ts';
import { start as startPostgres } from '../tests/support/postgres.ts';
import { benchAuth } from './bench/agent-leads.ts';
import { startChild } from './bench/children.ts';

/** Three agents with 50k, 50k and 100k leads: one agent, the larger one, and all are the three sizes. */
const AGENT_LEADS = [50_000, 50_000, 100_000];
const RSS_SAMPLE_MS = 10;
/** Netlify's bounds for the api function: a buffered answer's bytes, a synchronous run's seconds. */
const NETLIFY_ANSWER_BYTES = 6 * 1024 * 1024;
const NETLIFY_RUN_SECONDS = 60;

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

  const sizes: [string, Record<string, number>][] = [
    ['50k', { agent: admin.id }],
    ['100k', { agent: large.id }],
    ['200k', {}],
  ];
  console.log(
    `API process RSS before: ${rssMb(pid).toFixed(1)} MB; a page holds at most ${LEAD_EXPORT.pageRows} leads`,
  );
  console.log(
    [
      'leads'.padEnd(6),
      'rows'.padStart(8),
      'pages'.padStart(6),
      'MB'.padStart(6),
      's'.padStart(7),
      'ms/1k'.padStart(6),
      'max page MB'.padStart(12),
      '÷ 6 MB'.padStart(7),
      'max page s'.padStart(11),
      '÷ 60 s'.padStart(7),
      'last÷first'.padStart(11),
      'peak RSS MB'.padStart(12),
    ].join(' '),
  );
  for (const [label, filters] of sizes) {
    let peak = rssMb(pid);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), RSS_SAMPLE_MS);
    const pages: { bytes: number; seconds: number }[] = [];
    let rows = 0;
    const started = performance.now();
    await fetchLeadExport(
      '/api/admin/leads/export.csv',
      filters,
      async (path) => {
        const pageStarted = performance.now();
        const response = await fetch(`${api.url}${path}`, { headers: { cookie } });
        const body = await response.arrayBuffer();
        pages.push({ bytes: body.byteLength, seconds: (performance.now() - pageStarted) / 1000 });
        return new Response(body, { status: response.status, headers: response.headers });
      },
      (progress) => (rows = progress.done),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const bytes = pages.reduce((sum, page) => sum + page.bytes, 0);
    const largest = Math.max(...pages.map((page) => page.bytes));
    const slowest = Math.max(...pages.map((page) => page.seconds));
    const [first, last] = [pages[0]?.seconds ?? NaN, pages.at(-1)?.seconds ?? NaN];
    // The last page may be short: compare the last full page with the first.
    const lastFull = pages.length > 1 ? (pages.at(-2)?.seconds ?? last) : last;
    console.log(
      [
        label.padEnd(6),
        String(rows).padStart(8),
        String(pages.length).padStart(6),
        (bytes / 1024 / 1024).toFixed(1).padStart(6),
        seconds.toFixed(2).padStart(7),
        ((seconds * 1000) / (rows / 1000)).toFixed(0).padStart(6),
        (largest / 1024 / 1024).toFixed(2).padStart(12),
        (largest / NETLIFY_ANSWER_BYTES).toFixed(2).padStart(7),
        slowest.toFixed(2).padStart(11),
        (slowest / NETLIFY_RUN_SECONDS).toFixed(3).padStart(7),
        (lastFull / first).toFixed(2).padStart(11),
        peak.toFixed(1).padStart(12),
      ].join(' '),
    );
  }
} finally {
  for (const child of children) child.kill();
  await postgres.stop();
}
