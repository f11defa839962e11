/**
 * The answer of a route whose heavy work (an image, a PDF) found the worker pool full
 * (worker-pool.server.ts): 503 with Retry-After, in the one error shape. Apart from the pool, which
 * a worker loads and so imports nothing of the HTTP layer.
 */
import { HttpError } from './http.ts';

/** Seconds a client is asked to wait when every worker is busy. */
export const WORKERS_BUSY_RETRY_AFTER_SECONDS = 30;

/** 503 with Retry-After (the app's error handler sends retryAfterSeconds as the header). */
export class WorkersBusy extends HttpError {
  readonly retryAfterSeconds = WORKERS_BUSY_RETRY_AFTER_SECONDS;
  constructor(message: string) {
    super(503, message);
  }
}
