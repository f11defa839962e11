/**
 * How /admin/data sends a market-data file within Netlify's request limit (decision 0028): the
 * browser reads the picked file as a stream and sends it in chunks of at most UPLOAD_CHUNK_BYTES,
 * one request each, then asks for the import. A Zillow ZHVI City file (100+ MB, every US place) is
 * cut down to its header and its New York rows, which is all the importer could keep; the server
 * still applies its own filter (State NY, Nassau or Suffolk County, one of our towns). A RESO JSON
 * file cannot be cut by lines, so it goes up byte for byte.
 *
 * Pure: no DOM and no Node APIs, so the screen (DataScreen.tsx) and the tests run the same code.
 */
import * as z from 'zod/mini';
import { CsvError, CsvRecordReader, parseCsvFields } from './csv.ts';
import {
  DATA_MESSAGES,
  dataStartedSchema,
  UPLOAD_CHUNK_BYTES,
  uploadChunkAnswerSchema,
  type UploadKind,
} from './data-admin.ts';

/** One request's body, and how much of the picked file has been read once it is sent. */
export interface UploadChunk {
  body: Uint8Array<ArrayBuffer>;
  /** Bytes of the picked file read so far (for the progress bar). */
  fileBytesRead: number;
}

/** The bytes of a stream, as they come, counting them. */
async function* bytesOf(stream: ReadableStream<Uint8Array>, counted: { bytes: number }): AsyncGenerator<Uint8Array> {
  // getReader, not for await: not every browser can iterate a ReadableStream yet.
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      counted.bytes += value.byteLength;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

const concat = (parts: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> => {
  const body = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.byteLength;
  }
  return body;
};

/** The file cut into pieces of exactly `maxBytes` (the last one shorter). */
export async function* byteChunks(
  stream: ReadableStream<Uint8Array>,
  maxBytes = UPLOAD_CHUNK_BYTES,
): AsyncGenerator<UploadChunk> {
  const counted = { bytes: 0 };
  let parts: Uint8Array[] = [];
  let size = 0;
  for await (let bytes of bytesOf(stream, counted)) {
    while (size + bytes.byteLength >= maxBytes) {
      const room = maxBytes - size;
      parts.push(bytes.subarray(0, room));
      yield { body: concat(parts, maxBytes), fileBytesRead: counted.bytes - (bytes.byteLength - room) };
      bytes = bytes.subarray(room);
      parts = [];
      size = 0;
    }
    if (bytes.byteLength > 0) {
      parts.push(bytes);
      size += bytes.byteLength;
    }
  }
  if (size > 0) yield { body: concat(parts, size), fileBytesRead: counted.bytes };
}

/**
 * A Zillow City file's header and its New York rows (State is NY), whole records per chunk, each
 * chunk at most `maxBytes`. A file without a State column goes as it is: the server's answer to its
 * header is the one the admin should see. A row that is not valid CSV goes too, for the server to
 * count as skipped.
 */
export async function* zhviChunks(
  stream: ReadableStream<Uint8Array>,
  maxBytes = UPLOAD_CHUNK_BYTES,
): AsyncGenerator<UploadChunk> {
  const counted = { bytes: 0 };
  const encoder = new TextEncoder();
  const reader = new CsvRecordReader();
  const ready: Uint8Array<ArrayBuffer>[] = [];
  let parts: Uint8Array[] = [];
  let size = 0;
  let stateColumn: number | undefined;
  let header = true;
  const keep = (record: string) => {
    const bytes = encoder.encode(`${record}\n`);
    if (bytes.byteLength > maxBytes) throw new CsvError(`A record is longer than ${maxBytes} bytes`);
    if (size + bytes.byteLength > maxBytes) {
      ready.push(concat(parts, size));
      parts = [];
      size = 0;
    }
    parts.push(bytes);
    size += bytes.byteLength;
  };
  const onRecord = (record: string) => {
    if (header) {
      header = false;
      const columns = safeFields(record) ?? [];
      const at = columns.findIndex((name) => name.trim() === 'State');
      stateColumn = at === -1 ? undefined : at;
      keep(record);
      return;
    }
    if (record === '') return;
    if (stateColumn === undefined) return keep(record);
    const fields = safeFields(record, stateColumn + 1);
    if (fields === undefined || fields[stateColumn] === 'NY') keep(record);
  };
  for await (const bytes of bytesOf(stream, counted)) {
    reader.push(bytes, onRecord);
    while (ready.length > 0) {
      const body = ready.shift();
      if (body) yield { body, fileBytesRead: counted.bytes };
    }
  }
  reader.end(onRecord);
  for (const body of ready) yield { body, fileBytesRead: counted.bytes };
  if (size > 0) yield { body: concat(parts, size), fileBytesRead: counted.bytes };
}

function safeFields(record: string, maxFields?: number): string[] | undefined {
  try {
    return parseCsvFields(record, maxFields);
  } catch (error) {
    if (error instanceof CsvError) return undefined;
    throw error;
  }
}

/** The chunks of a file of `kind`. */
export const uploadChunks = (kind: UploadKind, stream: ReadableStream<Uint8Array>, maxBytes = UPLOAD_CHUNK_BYTES) =>
  kind === 'zhvi' ? zhviChunks(stream, maxBytes) : byteChunks(stream, maxBytes);

/** An answer of the API that is not a success, as the API's one error shape says it. */
export class UploadError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const errorAnswerSchema = z.object({ success: z.literal(false), error: z.string() });

/** Sends one request to our API: `fetch` in the browser (same origin, the session cookie). */
export type ApiFetch = (
  path: string,
  init: { method: string; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | string },
) => Promise<Response>;

export interface MarketUpload {
  kind: UploadKind;
  /** The picked file: its name, its size and its bytes. */
  name: string;
  size: number;
  stream: ReadableStream<Uint8Array>;
  fetch: ApiFetch;
  /** After each chunk is staged: the share of the file read so far, 0 to 1. */
  onProgress?: (share: number) => void;
  /** Default a random UUID. */
  uploadId?: string;
}

async function answerOf<Schema extends z.ZodMiniType>(response: Response, schema: Schema): Promise<z.output<Schema>> {
  const json: unknown = await response.json().catch(() => null);
  if (response.ok) {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    throw new UploadError(response.status, 'Unexpected answer from the server');
  }
  const error = errorAnswerSchema.safeParse(json);
  throw new UploadError(response.status, error.success ? error.data.error : `Request failed (${response.status})`);
}

/**
 * Uploads the file chunk by chunk (one request at a time, in order), then completes the upload,
 * which queues its import: answers the queued run's id. Throws {@link UploadError} with the
 * server's message at the first refusal.
 */
export async function uploadMarketFile({
  kind,
  name,
  size,
  stream,
  fetch,
  onProgress,
  uploadId = crypto.randomUUID(),
}: MarketUpload): Promise<z.output<typeof dataStartedSchema>> {
  const query = new URLSearchParams({ source: kind, name, size: String(size) }).toString();
  let chunks = 0;
  for await (const chunk of uploadChunks(kind, stream)) {
    const response = await fetch(`/api/admin/data/uploads/${uploadId}/chunks/${chunks}?${query}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/octet-stream', Accept: 'application/json' },
      body: chunk.body,
    });
    await answerOf(response, uploadChunkAnswerSchema);
    chunks += 1;
    onProgress?.(size > 0 ? Math.min(1, chunk.fileBytesRead / size) : 1);
  }
  if (chunks === 0) throw new UploadError(400, DATA_MESSAGES.empty);
  const response = await fetch(`/api/admin/data/uploads/${uploadId}/complete`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ chunks }),
  });
  return answerOf(response, dataStartedSchema);
}
