/**
 * /admin/data: the market-data runs, Refresh now and the file uploads, shared by the routes
 * (src/features/market/data-admin.server.ts) and the screen (DataScreen.tsx).
 */
import * as z from 'zod/mini';

export const dataRunSchema = z.object({
  id: z.number(),
  source: z.enum(['zhvi', 'inventory', 'sold']),
  /** A feed's URL, or "Uploaded file NAME". */
  origin: z.string(),
  started_at: z.string(),
  finished_at: z.nullable(z.string()),
  /** queued: recorded by the request, waiting for the background function to take it. */
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  /** So far, while the run is running. */
  rows_read: z.number(),
  rows_skipped: z.number(),
  towns_updated: z.number(),
  /** The names of the towns it changed, sorted (none for a run recorded before migration 0029). */
  updated_towns: z.array(z.string()),
  error: z.nullable(z.string()),
});
export type DataRun = z.infer<typeof dataRunSchema>;

/** The screen shows this many runs, newest first. */
export const DATA_RUNS_SHOWN = 50;

export const dataRunsResponseSchema = z.object({
  success: z.literal(true),
  runs: z.array(dataRunSchema),
  /** A run is queued or running: Refresh now and the uploads are refused (409) until it ends. */
  running: z.boolean(),
});

/** 202 to Refresh now and to a completed upload: the runs queued, each already in the list. */
export const dataStartedSchema = z.object({ success: z.literal(true), run_ids: z.array(z.number()) });

/**
 * The limits on the file the admin picks. No request carries the file whole: a ZHVI file's New York
 * rows and a RESO file's bytes go up in chunks (upload-chunks.ts), each request at most
 * UPLOAD_CHUNK_BYTES.
 */
export const UPLOAD_KINDS = {
  zhvi: { label: 'Zillow ZHVI CSV', accept: '.csv,text/csv', maxBytes: 200 * 1024 * 1024 },
  sold: { label: 'RESO JSON file', accept: '.json,application/json', maxBytes: 50 * 1024 * 1024 },
} as const;
export type UploadKind = keyof typeof UPLOAD_KINDS;
export const UPLOAD_KIND_NAMES = ['zhvi', 'sold'] as const;

/**
 * The most one chunk request carries. Netlify refuses request bodies over 6 MB, and a binary body
 * is base64-encoded on the way, which leaves 4.5 MB (4,718,592 bytes); 4,000,000 keeps a margin.
 */
export const UPLOAD_CHUNK_BYTES = 4_000_000;
/** Chunks one upload may have: enough for the largest file allowed, at whole CSV records per chunk. */
export const MAX_UPLOAD_CHUNKS = 100;

const megabytes = (bytes: number) => bytes / 1024 / 1024;

export const DATA_MESSAGES = {
  running: 'A market-data import is running: wait until it ends, then try again',
  chooseKind: 'Say what the file is: source=zhvi (a Zillow ZHVI CSV) or source=sold (a RESO JSON file)',
  empty: 'The file is empty',
  tooLarge: (kind: UploadKind) =>
    `The ${UPLOAD_KINDS[kind].label} must be smaller than ${megabytes(UPLOAD_KINDS[kind].maxBytes)}MB`,
  notJson: 'The file is not a RESO JSON file: it is not valid JSON',
  uploadId: 'The upload id must be a UUID',
  chunkIndex: `The chunk index must be a whole number from 0 to ${MAX_UPLOAD_CHUNKS - 1}`,
  chunkCount: `The number of chunks must be a whole number from 1 to ${MAX_UPLOAD_CHUNKS}`,
  fileName: 'Give the file’s name (at most 200 characters)',
  fileSize: 'Give the size of the file in bytes',
  chunkTooLarge: `A chunk must be at most ${UPLOAD_CHUNK_BYTES} bytes`,
  emptyChunk: 'A chunk cannot be empty',
  stagedTooLarge: 'The chunks add up to more than the size of the file',
  noUpload: 'No such upload: it was imported already, abandoned, or never started',
  otherKind: 'This upload was started as another kind of file or with another size',
  notStarted: 'The import could not be started. Please try again in a moment.',
  missingChunks: (arrived: number, declared: number) =>
    `Only ${arrived} of the ${declared} chunks arrived: send the missing ones, then complete the upload again`,
} as const;

/** The upload a chunk or a completion belongs to. */
export const uploadParamsSchema = z.object({ upload: z.uuid({ error: DATA_MESSAGES.uploadId }) });

export const uploadChunkParamsSchema = z.extend(uploadParamsSchema, {
  index: z.coerce
    .number({ error: DATA_MESSAGES.chunkIndex })
    .check(
      z.int({ error: DATA_MESSAGES.chunkIndex }),
      z.gte(0, { error: DATA_MESSAGES.chunkIndex }),
      z.lte(MAX_UPLOAD_CHUNKS - 1, { error: DATA_MESSAGES.chunkIndex }),
    ),
});

/** Every chunk says what the upload is: the first one to arrive records it, the others must agree. */
export const uploadChunkQuerySchema = z
  .object({
    source: z.enum(UPLOAD_KIND_NAMES, { error: DATA_MESSAGES.chooseKind }),
    /** The file's name, shown as the run's origin. */
    name: z.string({ error: DATA_MESSAGES.fileName }).check(
      z.trim(),
      z.minLength(1, { error: DATA_MESSAGES.fileName }),
      z.maxLength(200, {
        error: DATA_MESSAGES.fileName,
      }),
    ),
    /** The size in bytes of the file the admin picked (not of this chunk). */
    size: z.coerce
      .number({ error: DATA_MESSAGES.fileSize })
      .check(z.int({ error: DATA_MESSAGES.fileSize }), z.gte(1, { error: DATA_MESSAGES.empty })),
  })
  .check(
    z.superRefine(({ source, size }, context) => {
      if (size > UPLOAD_KINDS[source].maxBytes) {
        context.addIssue({ code: 'custom', path: ['size'], message: DATA_MESSAGES.tooLarge(source) });
      }
    }),
  );

/** 200 to a chunk: it is staged (sent again, it replaces itself). */
export const uploadChunkAnswerSchema = z.object({
  success: z.literal(true),
  index: z.number(),
  /** Bytes staged so far for this upload. */
  staged_bytes: z.number(),
});

/** The completion: how many chunks the upload has (indexes 0 to chunks - 1). */
export const uploadCompleteSchema = z.object({
  chunks: z
    .number({ error: DATA_MESSAGES.chunkCount })
    .check(
      z.int({ error: DATA_MESSAGES.chunkCount }),
      z.gte(1, { error: DATA_MESSAGES.chunkCount }),
      z.lte(MAX_UPLOAD_CHUNKS, { error: DATA_MESSAGES.chunkCount }),
    ),
});
