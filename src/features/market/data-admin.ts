/**
 * /admin/data: the market-data runs, Refresh now and the file uploads, shared by the routes
 * (src/features/market/data-admin.server.ts) and the screen (DataScreen.tsx).
 */
import { z } from 'zod';

export const dataRunSchema = z.object({
  id: z.number(),
  source: z.enum(['zhvi', 'inventory', 'sold']),
  /** A feed's URL, or "Uploaded file NAME". */
  origin: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  status: z.enum(['running', 'succeeded', 'failed']),
  /** So far, while the run is running. */
  rows_read: z.number(),
  rows_skipped: z.number(),
  towns_updated: z.number(),
  error: z.string().nullable(),
});
export type DataRun = z.infer<typeof dataRunSchema>;

/** The screen shows this many runs, newest first. */
export const DATA_RUNS_SHOWN = 50;

export const dataRunsResponseSchema = z.object({
  success: z.literal(true),
  runs: z.array(dataRunSchema),
  /** A run is running: Refresh now and the uploads are refused (409) until it ends. */
  running: z.boolean(),
});

/** 202 to Refresh now and to an upload: the runs started, each already in the list. */
export const dataStartedSchema = z.object({ success: z.literal(true), run_ids: z.array(z.number()) });

export const UPLOAD_KINDS = {
  zhvi: { label: 'Zillow ZHVI CSV', accept: '.csv,text/csv', maxBytes: 200 * 1024 * 1024 },
  sold: { label: 'RESO JSON file', accept: '.json,application/json', maxBytes: 50 * 1024 * 1024 },
} as const;
export type UploadKind = keyof typeof UPLOAD_KINDS;

export const DATA_MESSAGES = {
  running: 'A market-data import is running: wait until it ends, then try again',
  chooseKind: 'Say what the file is: source=zhvi (a Zillow ZHVI CSV) or source=sold (a RESO JSON file)',
  empty: 'The file is empty',
  tooLarge: (kind: UploadKind) =>
    `The ${UPLOAD_KINDS[kind].label} must be smaller than ${UPLOAD_KINDS[kind].maxBytes / 1024 / 1024}MB`,
  notJson: 'The file is not a RESO JSON file: it is not valid JSON',
} as const;

export const uploadQuerySchema = z.object({
  source: z.enum(['zhvi', 'sold'], { error: DATA_MESSAGES.chooseKind }),
  /** The file's name, shown as the run's origin. */
  name: z.string().trim().min(1).max(200).optional(),
});
