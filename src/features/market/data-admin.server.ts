/**
 * /admin/data's routes: the market-data runs, Refresh now from the configured feeds, and uploads of
 * a ZHVI CSV or a RESO JSON file. The running server imports them in the background through the
 * same refresh as `npm run data:refresh` (refreshMarketData), each run recorded in data_runs with
 * its rows read so far, which the screen polls. Nobody has to stop the site.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { assertAdmin, sessionAgentCte, sessionOf, sessionParams } from '../auth/access.server.ts';
import type { Db } from '../../server/db.ts';
import { marketTagsOf, type PurgeAfterWrite } from '../../server/edge-cache.ts';
import { HttpError, parseOrThrow, route } from '../../server/http.ts';
import {
  DATA_MESSAGES,
  DATA_RUNS_SHOWN,
  dataRunSchema,
  UPLOAD_KINDS,
  uploadQuerySchema,
  type UploadKind,
} from './data-admin.ts';
import { startRunsUnlessRunning } from './data-runs.server.ts';
import { csvFromFile, plannedRuns, refreshMarketData, soldFromFile, type RefreshPlan } from './refresh.server.ts';
import { ResoError } from './reso-client.server.ts';
import { parseHeader, ZillowFileError } from './zhvi.server.ts';

/** ONE round trip: the session's agent (401/403) and, for an admin, the newest runs. */
const RUNS_SQL = `
WITH ${sessionAgentCte(1)}
SELECT me.is_admin,
       coalesce((SELECT json_agg(r ORDER BY r.started_at DESC, r.id DESC)
                   FROM (SELECT id, source, origin, started_at, finished_at, status, rows_read, rows_skipped,
                                towns_updated, error
                           FROM data_runs WHERE me.is_admin
                          ORDER BY started_at DESC, id DESC LIMIT ${DATA_RUNS_SHOWN}) r), '[]') AS runs,
       EXISTS (SELECT 1 FROM data_runs WHERE me.is_admin AND status = 'running'
                                         AND started_at > now() - interval '1 hour') AS running
  FROM me`;

const runsRowSchema = z.object({ is_admin: z.boolean(), runs: z.array(dataRunSchema), running: z.boolean() });

async function readRuns(db: Db, c: Context) {
  const [row] = await db.query(RUNS_SQL, sessionParams(sessionOf(c)));
  assertAdmin(runsRowSchema.pick({ is_admin: true }).optional().parse(row));
  return runsRowSchema.parse(row);
}

/** The first line of a file (at most 64 KB of it), without a byte-order mark. */
async function firstLine(file: string): Promise<string> {
  const handle = await open(file);
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return (buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0] ?? '')
      .replace(/^\uFEFF/, '')
      .replace(/\r$/, '');
  } finally {
    await handle.close();
  }
}

/**
 * Streams the request body into `file`, never holding it whole: refused with 413 before reading
 * when Content-Length is over the kind's limit, and as soon as the streamed bytes pass it.
 */
async function saveBody(c: Context, kind: UploadKind, file: string): Promise<void> {
  const limit = UPLOAD_KINDS[kind].maxBytes;
  const declared = c.req.header('content-length');
  if (declared !== undefined && Number(declared) > limit) throw new HttpError(413, DATA_MESSAGES.tooLarge(kind));
  const out = createWriteStream(file);
  let size = 0;
  try {
    for await (const chunk of c.req.raw.body ?? []) {
      size += chunk.byteLength;
      if (size > limit) throw new HttpError(413, DATA_MESSAGES.tooLarge(kind));
      if (!out.write(chunk)) await once(out, 'drain');
    }
  } finally {
    out.end();
    await finished(out);
  }
  if (size === 0) throw new HttpError(400, DATA_MESSAGES.empty);
}

/** The refresh plan of an uploaded file, checked to be the kind it says before any run is recorded. */
async function uploadPlan(kind: UploadKind, file: string, name: string): Promise<RefreshPlan> {
  const origin = `Uploaded file ${name}`;
  if (kind === 'zhvi') {
    try {
      parseHeader(await firstLine(file), 'The file');
    } catch (error) {
      if (error instanceof ZillowFileError) throw new HttpError(400, error.message);
      throw error;
    }
    return { zhvi: { ...csvFromFile(file), origin } };
  }
  try {
    return { sold: { ...(await soldFromFile(file)), origin } };
  } catch (error) {
    if (error instanceof SyntaxError) throw new HttpError(400, DATA_MESSAGES.notJson);
    if (error instanceof ResoError) throw new HttpError(400, error.message.replace(file, 'The file'));
    throw error;
  }
}

export function dataAdminRoutes({
  db,
  feeds,
  runInBackground,
  purge,
}: {
  db: Db;
  /** The configured feeds (planFromEnv), read at each Refresh now. */
  feeds: () => RefreshPlan;
  runInBackground: (task: Promise<unknown>) => void;
  /** Called once the import committed, with the tags of the answers it changed. */
  purge: PurgeAfterWrite;
}): Hono {
  const app = new Hono();

  /** Records the plan's runs (409 while another runs) and imports in the background; answers their ids. */
  const start = async (c: Context, plan: RefreshPlan, after: () => Promise<void> = () => Promise.resolve()) => {
    const runIds = await startRunsUnlessRunning(db, plannedRuns(plan));
    if (!runIds) throw new HttpError(409, DATA_MESSAGES.running);
    const imported = refreshMarketData(db, plan, { runIds, progress: true });
    runInBackground(imported.then(({ runs }) => purge(c.req.raw, marketTagsOf(runs))).finally(after));
    return [...runIds.values()];
  };

  route(app, '/admin/data/runs', {
    GET: async (c) => {
      const { runs, running } = await readRuns(db, c);
      return c.json({ success: true, runs, running });
    },
  });

  route(app, '/admin/data/refresh', {
    POST: async (c) => {
      await readRuns(db, c);
      return c.json({ success: true, run_ids: await start(c, feeds()) }, 202);
    },
  });

  route(app, '/admin/data/upload', {
    POST: async (c) => {
      // Who is asking, before anything about the request: an agent learns nothing of the upload.
      const { running } = await readRuns(db, c);
      const { source: kind, name } = parseOrThrow(uploadQuerySchema, c.req.query());
      // Not worth receiving a file of 200MB to refuse it afterwards.
      if (running) throw new HttpError(409, DATA_MESSAGES.running);
      const dir = await mkdtemp(join(tmpdir(), 'market-upload-'));
      const removeDir = () => rm(dir, { recursive: true, force: true });
      try {
        const file = join(dir, kind === 'zhvi' ? 'zhvi.csv' : 'sold.json');
        await saveBody(c, kind, file);
        const plan = await uploadPlan(kind, file, name ?? `${kind}.${kind === 'zhvi' ? 'csv' : 'json'}`);
        return c.json({ success: true, run_ids: await start(c, plan, removeDir) }, 202);
      } catch (error) {
        await removeDir();
        throw error;
      }
    },
  });
  return app;
}
