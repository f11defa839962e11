/**
 * /admin/data's routes: the market-data runs, Refresh now from the configured feeds, and uploads of
 * a ZHVI CSV or a RESO JSON file in chunks (decision 0028: no request over Netlify's body limit).
 * The routes only record what to run, as queued data_runs rows, and start the background work
 * (the background function on Netlify, the same code in-process locally), which imports and writes
 * each run's rows read so far; the screen polls them. Nobody has to stop the site.
 */
import type { Context } from 'hono';
import * as z from 'zod';
import { adminFirst, assertAdmin, sessionAgentCte, sessionOf, sessionParams } from '../auth/public/access.server.ts';
import type { Db } from '../../platform/db.ts';
import { HttpError, readBody, readJson } from '../../platform/http.ts';
import { accepted, apiGroup, json, ok } from '../../platform/operation.ts';
import {
  DATA_MESSAGES,
  DATA_RUNS_SHOWN,
  dataRunSchema,
  UPLOAD_CHUNK_BYTES,
  uploadChunkParamsSchema,
  uploadChunkQuerySchema,
  uploadCompleteSchema,
  uploadParamsSchema,
  type UploadKind,
  dataRunsResponseSchema,
  dataStartedSchema,
  uploadChunkAnswerSchema,
} from './data-admin.ts';
import { failQueuedRuns, queueRunsUnlessRunning } from './data-runs.server.ts';
import type { RefreshPlan } from './feeds.server.ts';
import { plannedRuns } from './refresh.server.ts';
import { shownOrigin, UPLOADED } from './run-words.ts';
import { parseHeader, ZillowFileError } from './zillow-scan.server.ts';

/** ONE round trip: the session's agent (401/403) and, for an admin, the newest runs. */
const RUNS_SQL = `
WITH ${sessionAgentCte(1)}
SELECT me.is_admin,
       coalesce((SELECT json_agg(r ORDER BY r.started_at DESC, r.id DESC)
                   FROM (SELECT id, source, origin, started_at, finished_at, status, rows_read, rows_skipped,
                                towns_updated, error,
                                -- The towns by name (a slug no longer in towns by its slug).
                                ARRAY(SELECT coalesce(t.name, u.slug) FROM unnest(updated_towns) AS u (slug)
                                        LEFT JOIN towns t ON t.slug = u.slug
                                       ORDER BY 1) AS updated_towns
                           FROM data_runs WHERE me.is_admin
                          ORDER BY started_at DESC, id DESC LIMIT ${DATA_RUNS_SHOWN}) r), '[]') AS runs,
       EXISTS (SELECT 1 FROM data_runs WHERE me.is_admin AND status IN ('queued', 'running')
                                         AND started_at > now() - interval '1 hour') AS running
  FROM me`;

const runsRowSchema = z.object({ is_admin: z.boolean(), runs: z.array(dataRunSchema), running: z.boolean() });

async function readRuns(db: Db, c: Context) {
  const [row] = await db.query(RUNS_SQL, sessionParams(sessionOf(c)));
  assertAdmin(runsRowSchema.pick({ is_admin: true }).optional().parse(row));
  const read = runsRowSchema.parse(row);
  // The browser is told where each run's data came from without the server's paths (minor 31).
  return { ...read, runs: read.runs.map((run) => ({ ...run, origin: shownOrigin(run.origin) })) };
}

const CHUNK_LIMIT = { bytes: UPLOAD_CHUNK_BYTES, message: DATA_MESSAGES.chunkTooLarge };

/**
 * The first chunk says early whether the file is the kind it claims (the whole file is read only
 * by the import): a ZHVI file's header, a RESO file's first character.
 */
function checkFirstChunk(kind: UploadKind, bytes: Buffer): void {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (kind === 'sold') {
    if (!/^\s*[[{]/.test(text)) throw new HttpError(400, DATA_MESSAGES.notJson);
    return;
  }
  try {
    parseHeader((text.split('\n')[0] ?? '').replace(/\r$/, ''), 'The file');
  } catch (error) {
    if (error instanceof ZillowFileError) throw new HttpError(400, error.message);
    throw error;
  }
}

/**
 * Stages one chunk in ONE statement: the admin check, the upload's row (made by whichever chunk
 * comes first), the chunk (a chunk sent again replaces itself), and the checks that it belongs to
 * this admin's upload of this kind and size, not yet imported, its chunks within the file's size.
 * The first chunk is refused while an import runs: not worth sending 200 MB to be refused after.
 * The bytes travel as base64 text: PGlite takes a 4 MB bytea parameter in seconds, text at once.
 */
const STAGE_CHUNK_SQL = `
WITH ${sessionAgentCte(1)},
chunk AS (SELECT decode($8, 'base64') AS bytes),
busy AS (SELECT EXISTS (SELECT 1 FROM data_runs WHERE status IN ('queued', 'running')
                                                AND started_at > now() - interval '1 hour') AS yes),
allowed AS (SELECT me.id FROM me, busy WHERE me.is_admin AND NOT ($7::int = 0 AND busy.yes)),
created AS (
  -- Only with a chunk it will store: a refused first chunk leaves no upload behind.
  INSERT INTO market_uploads (id, kind, name, file_bytes, admin_id)
  SELECT $3::uuid, $4, $5, $6::bigint, allowed.id FROM allowed, chunk
   WHERE octet_length(chunk.bytes) <= $6::bigint
  ON CONFLICT (id) DO NOTHING
  RETURNING id, kind, file_bytes, admin_id
),
upload AS (
  SELECT id, kind, file_bytes, admin_id FROM market_uploads WHERE id = $3::uuid
  UNION ALL SELECT id, kind, file_bytes, admin_id FROM created
),
mine AS (
  SELECT upload.* FROM upload, allowed
   WHERE upload.admin_id = allowed.id
     AND NOT EXISTS (SELECT 1 FROM data_runs r WHERE r.upload_id = upload.id)
),
target AS (SELECT * FROM mine WHERE kind = $4 AND file_bytes = $6::bigint),
others AS (SELECT coalesce(sum(octet_length(bytes)), 0)::bigint AS bytes
             FROM market_upload_chunks WHERE upload_id = $3::uuid AND chunk_index <> $7::int),
stored AS (
  INSERT INTO market_upload_chunks (upload_id, chunk_index, bytes)
  SELECT target.id, $7::int, chunk.bytes FROM target, others, chunk
   WHERE others.bytes + octet_length(chunk.bytes) <= target.file_bytes
  ON CONFLICT (upload_id, chunk_index) DO UPDATE SET bytes = EXCLUDED.bytes, created_at = now()
  RETURNING chunk_index
)
SELECT me.is_admin,
       (SELECT yes FROM busy) AND $7::int = 0 AS busy,
       EXISTS (SELECT 1 FROM mine) AS mine,
       EXISTS (SELECT 1 FROM target) AS matches,
       EXISTS (SELECT 1 FROM stored) AS stored,
       ((SELECT bytes FROM others) + (SELECT octet_length(bytes) FROM chunk))::float8 AS staged_bytes
  FROM me`;

const stagedSchema = z.object({
  is_admin: z.boolean(),
  busy: z.boolean(),
  mine: z.boolean(),
  matches: z.boolean(),
  stored: z.boolean(),
  staged_bytes: z.number(),
});

/**
 * Queues the upload's import in one transaction (the run lock of queueRunsUnlessRunning): the
 * admin's upload, not yet imported, with every chunk from 0 to chunks - 1 (any beyond are dropped).
 */
async function queueUpload(db: Db, c: Context, upload: string, chunks: number): Promise<number[]> {
  return db.transaction(async (tx) => {
    const [found] = await tx.query<{
      is_admin: boolean;
      name: string | null;
      kind: UploadKind | null;
      arrived: number;
    }>(
      `WITH ${sessionAgentCte(1)},
       upload AS (SELECT u.id, u.name, u.kind FROM market_uploads u, me
                   WHERE u.id = $3::uuid AND me.is_admin AND u.admin_id = me.id
                     AND NOT EXISTS (SELECT 1 FROM data_runs r WHERE r.upload_id = u.id)
                   FOR UPDATE OF u),
       dropped AS (DELETE FROM market_upload_chunks WHERE upload_id = $3::uuid AND chunk_index >= $4::int
                      AND EXISTS (SELECT 1 FROM upload))
       SELECT me.is_admin, upload.name, upload.kind,
              (SELECT count(*)::int FROM market_upload_chunks
                WHERE upload_id = upload.id AND chunk_index < $4::int) AS arrived
         FROM me LEFT JOIN upload ON true`,
      [...sessionParams(sessionOf(c)), upload, chunks],
    );
    assertAdmin(found);
    if (!found?.kind || found.name === null) throw new HttpError(404, DATA_MESSAGES.noUpload);
    if (found.arrived !== chunks) throw new HttpError(409, DATA_MESSAGES.missingChunks(found.arrived, chunks));
    const ids = await queueRunsUnlessRunning(tx, [
      { source: found.kind, origin: `${UPLOADED}${found.name}`, uploadId: upload },
    ]);
    if (!ids) throw new HttpError(409, DATA_MESSAGES.running);
    return ids;
  });
}

/** What the data admin's routes are built from (src/app/api-groups.server.ts). */
export interface DataAdminRoutesDeps {
  db: Db;
  /** The configured feeds (planFromEnv), read at each Refresh now for the runs' origins. */
  feeds: () => RefreshPlan;
  /** Starts the background work that runs the queued runs (src/platform/background-work.ts). */
  startImports: () => Promise<void>;
}

function dataAdminSetup({ db, feeds, startImports }: DataAdminRoutesDeps) {
  /** Starts the queued runs' import; when it cannot be started they fail at once, saying why. */
  const start = async (ids: readonly number[]) => {
    try {
      await startImports();
    } catch (error) {
      await failQueuedRuns(
        db,
        ids,
        `The import could not be started: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw new HttpError(502, DATA_MESSAGES.notStarted);
    }
  };
  return { db, feeds, start };
}

export const dataAdminApi = apiGroup(dataAdminSetup, (op) => [
  op({
    method: 'GET',
    path: '/api/admin/data/runs',
    access: 'admin',
    summary: 'The market-data runs',
    tag: 'Market data',
    success: ok('The runs', dataRunsResponseSchema),
    handler: async (c, { db }) => {
      const { runs, running } = await readRuns(db, c);
      return c.json({ success: true, runs, running });
    },
  }),
  op({
    method: 'POST',
    path: '/api/admin/data/refresh',
    access: 'admin',
    summary: 'Queues a refresh of market data from the feeds; the background work runs it',
    tag: 'Market data',
    success: accepted('Queued', dataStartedSchema),
    errors: [409, 502],
    handler: async (c, { db, feeds, start }) => {
      await readRuns(db, c);
      const ids = await db.transaction((tx) => queueRunsUnlessRunning(tx, plannedRuns(feeds())));
      if (!ids) throw new HttpError(409, DATA_MESSAGES.running);
      await start(ids);
      return c.json({ success: true, run_ids: ids }, 202);
    },
  }),
  op({
    method: 'PUT',
    path: '/api/admin/data/uploads/:upload/chunks/:index',
    access: 'admin',
    summary:
      'Stages one chunk (at most 4,000,000 bytes) of a ZHVI CSV (`source=zhvi`: the header and the New York rows, whole lines) ' +
      'or a RESO JSON file (`source=sold`: its bytes in order); the upload id is a UUID the client picks, `size` the whole file’s',
    tag: 'Market data',
    params: uploadChunkParamsSchema,
    query: uploadChunkQuerySchema,
    body: { 'application/octet-stream': { description: 'The chunk’s bytes, as they are in the file' } },
    checksType: false,
    success: ok('Staged', uploadChunkAnswerSchema),
    errors: [404, 409],
    handler: async (c, { db }, input) => {
      // Who is asking, before anything about the request: an agent learns nothing of the upload.
      const { params, query, bytes } = await adminFirst(c, db, async () => {
        const params = input.params();
        const query = input.query();
        const bytes = await readBody(c, CHUNK_LIMIT);
        if (bytes.length === 0) throw new HttpError(400, DATA_MESSAGES.emptyChunk);
        if (params.index === 0) checkFirstChunk(query.source, bytes);
        // One chunk larger than the whole file: refused before anything is written.
        if (bytes.length > query.size) throw new HttpError(413, DATA_MESSAGES.stagedTooLarge);
        return { params, query, bytes };
      });
      const [row] = await db.query(STAGE_CHUNK_SQL, [
        ...sessionParams(sessionOf(c)),
        params.upload,
        query.source,
        query.name,
        query.size,
        params.index,
        bytes.toString('base64'),
      ]);
      const staged = stagedSchema.optional().parse(row);
      assertAdmin(staged);
      if (staged?.busy) throw new HttpError(409, DATA_MESSAGES.running);
      if (!staged?.mine) throw new HttpError(404, DATA_MESSAGES.noUpload);
      if (!staged.matches) throw new HttpError(409, DATA_MESSAGES.otherKind);
      if (!staged.stored) throw new HttpError(413, DATA_MESSAGES.stagedTooLarge);
      return c.json({ success: true, index: params.index, staged_bytes: staged.staged_bytes });
    },
  }),
  op({
    method: 'POST',
    path: '/api/admin/data/uploads/:upload/complete',
    access: 'admin',
    summary: 'Queues the import of an upload whose chunks have all arrived; the background work runs it',
    tag: 'Market data',
    params: uploadParamsSchema,
    body: json(uploadCompleteSchema),
    success: accepted('Queued', dataStartedSchema),
    errors: [404, 409, 502],
    handler: async (c, { db, start }, input) => {
      const { upload, chunks } = await adminFirst(c, db, async () => ({
        ...input.params(),
        ...(await readJson(c, uploadCompleteSchema)),
      }));
      const ids = await queueUpload(db, c, upload, chunks);
      await start(ids);
      return c.json({ success: true, run_ids: ids }, 202);
    },
  }),
]);
