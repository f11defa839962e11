/**
 * The one pool of worker threads for CPU-heavy work (decision 0036): image
 * decoding and encoding (sharp) and PDF rendering (pdf-lib) run here, off the event loop, so no
 * request holds the server while they run. A job is declared once with `workerJob` in the module
 * that does the work; `run` sends it to a worker, which imports that module (by its URL) and runs it.
 *
 * - Bounded: at most POOL_SIZE threads work at once, and a worker being killed still holds its slot
 *   until it has exited (native work in libuv's threadpool ends only when it returns, see below), so
 *   hostile uploads can never hold more threads than that. At most MAX_WAITING jobs wait; beyond,
 *   WorkerPoolError 'busy' (the routes answer 503 with Retry-After).
 * - A time budget per job, counted from when a worker starts it: over it, the caller gets
 *   WorkerPoolError 'over-budget' at once and the worker is terminated (a new one starts for the
 *   next job). terminate() stops JavaScript, but a sharp call already running in libuv's threadpool
 *   runs to its end: the image job also gives sharp the budget as its own timeout (libvips stops
 *   between tiles), and SVG filters, the unbounded case, are refused before rendering.
 *
 * The worker runs THIS module's file: in a Netlify function that is the function's bundle (esbuild
 * puts every module, this one and the jobs, into one file), so a worker needs no file of its own that
 * the bundler could miss; run from source (npm start, tests), it is this .ts file, run by Node's own
 * type stripping. This module and the job modules therefore import nothing a worker cannot run
 * (no parameter properties, no enums; types with `import type`), and no package at their top.
 */
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, Worker, workerData, type Transferable } from 'node:worker_threads';
import * as z from 'zod';

/** How a job's failure reaches its caller, besides the job's own answer. */
export class WorkerPoolError extends Error {
  /** 'busy': too many jobs waiting; 'over-budget': the job ran past its time budget and was stopped. */
  readonly reason: 'busy' | 'over-budget';
  constructor(reason: 'busy' | 'over-budget', message: string) {
    super(message);
    this.reason = reason;
  }
}

/**
 * Threads working at once. One on a machine with two cores (the other stays with the event loop,
 * logins' scrypt and the database), at most two anywhere: each job also takes one of libuv's four
 * threadpool threads (sharp), and the rest must stay free for scrypt.
 */
export const POOL_SIZE = Math.max(1, Math.min(2, availableParallelism() - 1));
/** Jobs that may wait for a thread; more are refused (busy), not queued without end. */
export const MAX_WAITING = 16;

/** The answer of a job: its output, and which of its buffers to move rather than copy. */
export interface JobAnswer<Output> {
  output: Output;
  transfer?: Transferable[];
}

export interface WorkerJob<Input, Output> {
  readonly name: string;
  /** Its time budget unless a run gives another. */
  readonly budgetMs: number;
  /** Runs the job in a worker within `budgetMs` (the job's default unless given). */
  run(input: Input, options?: { budgetMs?: number }): Promise<Output>;
}

type Handler = (input: unknown) => Promise<JobAnswer<unknown>>;

/** The jobs this thread knows: in a worker, those of the modules it has imported. */
const handlers = new Map<string, Handler>();

/** Jobs finished and workers killed in this process, by job name (for tests and the bench). */
const stats = { completed: new Map<string, number>(), killed: 0 };

export const workerPoolStats = (): { completed: (name: string) => number; killed: number } => ({
  completed: (name) => stats.completed.get(name) ?? 0,
  killed: stats.killed,
});

interface Request {
  id: number;
  name: string;
  moduleUrl: string;
  input: unknown;
}

type Reply = { id: number; ok: true; output: unknown } | { id: number; ok: false; message: string };

interface Pending {
  request: Request;
  budgetMs: number;
  resolve: (output: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The job it runs, if any. */
  job: Pending | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Being terminated: it takes no job, and holds its slot until it has exited. */
  dying: boolean;
}

const MARK = 'netsheet-worker-pool';
const slots = new Set<Slot>();
const waiting: Pending[] = [];
let nextId = 1;

const isReply = (value: unknown): value is Reply =>
  typeof value === 'object' && value !== null && 'id' in value && 'ok' in value;

function startWorker(): Slot {
  const worker = new Worker(new URL(import.meta.url), { workerData: { [MARK]: true } });
  // An idle worker does not keep the process alive (a script or test ends when its work does).
  worker.unref();
  const slot: Slot = { worker, job: undefined, timer: undefined, dying: false };
  worker.on('message', (message: unknown) => {
    if (!isReply(message) || !slot.job || slot.job.request.id !== message.id) return;
    const { job } = slot;
    clearTimeout(slot.timer);
    slot.job = undefined;
    worker.unref();
    if (message.ok) {
      stats.completed.set(job.request.name, (stats.completed.get(job.request.name) ?? 0) + 1);
      job.resolve(message.output);
    } else {
      job.reject(new Error(message.message));
    }
    dispatch();
  });
  const gone = (error?: Error) => {
    if (!slots.has(slot)) return;
    slots.delete(slot);
    clearTimeout(slot.timer);
    slot.job?.reject(error ?? new Error('The worker stopped'));
    slot.job = undefined;
    dispatch();
  };
  worker.on('error', gone);
  worker.on('exit', () => gone());
  slots.add(slot);
  return slot;
}

/** Stops `slot`'s job for its budget: the caller is answered now, the slot freed when the thread exits. */
function kill(slot: Slot): void {
  const { job } = slot;
  slot.dying = true;
  slot.job = undefined;
  stats.killed += 1;
  job?.reject(
    new WorkerPoolError('over-budget', `The job ${job.request.name} ran past its ${job.budgetMs} ms and was stopped`),
  );
  void slot.worker.terminate();
}

/** Gives waiting jobs to idle workers, starting workers up to POOL_SIZE. */
function dispatch(): void {
  while (waiting.length > 0) {
    let slot = [...slots].find((candidate) => !candidate.dying && !candidate.job);
    if (!slot && slots.size < POOL_SIZE) slot = startWorker();
    if (!slot) return;
    const job = waiting.shift();
    if (!job) return;
    const current = slot;
    current.job = job;
    current.worker.ref();
    current.timer = setTimeout(() => kill(current), job.budgetMs);
    current.worker.postMessage(job.request);
  }
}

/** A job: its name, the module that declares it, what it takes and gives, its work and its budget. */
export interface JobDefinition<Input extends z.core.$ZodType, Output extends z.core.$ZodType> {
  name: string;
  /** The declaring module's `import.meta.url`: a worker imports it to learn the handler. */
  moduleUrl: string;
  /** What crosses to the worker and back is checked on arrival (structured clones are untyped). */
  input: Input;
  output: Output;
  handler: (input: z.output<Input>) => Promise<JobAnswer<z.input<Output>>>;
  budgetMs: number;
}

/**
 * Declares a job, done by its handler in a worker. Declare each job at a module's top level, so that
 * importing the module (as a worker does) declares it.
 */
export function workerJob<Input extends z.core.$ZodType, Output extends z.core.$ZodType>(
  job: JobDefinition<Input, Output>,
): WorkerJob<z.input<Input>, z.output<Output>> {
  handlers.set(job.name, async (input) => job.handler(z.parse(job.input, input)));
  return {
    name: job.name,
    budgetMs: job.budgetMs,
    run(input, { budgetMs = job.budgetMs } = {}) {
      if (waiting.length >= MAX_WAITING) {
        return Promise.reject(new WorkerPoolError('busy', 'Too many jobs are waiting for a worker'));
      }
      return new Promise<z.output<Output>>((resolve, reject) => {
        const request = { id: nextId++, name: job.name, moduleUrl: job.moduleUrl, input };
        const done = (output: unknown) => {
          const parsed = z.safeParse(job.output, output);
          if (parsed.success) resolve(parsed.data);
          else reject(new Error(`The job ${job.name} answered something else than its output`));
        };
        waiting.push({ request, budgetMs, resolve: done, reject });
        dispatch();
      });
    },
  };
}

/** In a worker: runs each request's job, one at a time, and answers it. */
function serveJobs(port: NonNullable<typeof parentPort>): void {
  const answer = async (request: Request): Promise<void> => {
    try {
      if (!handlers.has(request.name)) await import(request.moduleUrl);
      const handler = handlers.get(request.name);
      if (!handler) throw new Error(`No job ${request.name} in ${request.moduleUrl}`);
      const { output, transfer = [] } = await handler(request.input);
      port.postMessage({ id: request.id, ok: true, output } satisfies Reply, transfer);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ id: request.id, ok: false, message } satisfies Reply);
    }
  };
  port.on('message', (request: Request) => void answer(request));
}

const data: unknown = workerData;
if (!isMainThread && parentPort && typeof data === 'object' && data !== null && MARK in data) serveJobs(parentPort);
