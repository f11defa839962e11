import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';

/**
 * PGlite is one opener's database: two PGlite instances on one data directory, in two processes
 * or in two threads of one process, each keep their own copy of its state and overwrite each
 * other's writes (`netlify dev` runs every function call in a new worker thread of one process:
 * four concurrent writes kept one, audit A8). Every opener of the embedded database takes this
 * lock first: a file beside the data naming the process and the thread (worker_threads.threadId)
 * that hold it. A second opener is refused with what to do instead, whichever process or thread it
 * is in. A lock left by a process that is gone is taken over. Decision 0031.
 */
export function lockPgliteDir(dataDir: string, holder: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = resolve(join(dataDir, 'in-use.lock'));
  const held = heldHere();
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify({ pid: process.pid, threadId, holder } satisfies Owner));
      closeSync(fd);
      held.add(file);
      const release = () => {
        held.delete(file);
        rmSync(file, { force: true });
      };
      // In a worker thread 'exit' is the thread's own end; a thread that is terminated instead
      // leaves the lock, which then refuses every other thread until the process ends.
      process.once('exit', release);
      return () => {
        process.removeListener('exit', release);
        release();
      };
    } catch (error) {
      if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
      const refusal = refusalFor(lockOwner(file), held.has(file), dataDir);
      if (refusal) throw new Error(refusal, { cause: error });
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database in ${dataDir}`);
}

interface Owner {
  pid: number;
  /** worker_threads.threadId of the holder: 0 for a process's main thread. */
  threadId: number;
  holder: string;
}

/**
 * Why `owner`'s lock must not be taken over, or undefined when it is stale. Within this process a
 * thread cannot see whether another thread is still alive, so another thread's lock is never taken
 * over; this thread's own lock is stale only when this thread does not hold it (it was left by an
 * earlier process that had the same pid, as a restarted container's first process has).
 */
function refusalFor(owner: Owner | undefined, heldByThisThread: boolean, dataDir: string): string | undefined {
  if (!owner || !isAlive(owner.pid)) return undefined;
  if (owner.pid !== process.pid) {
    return (
      `The embedded database in ${dataDir} is in use by ${owner.holder} (pid ${owner.pid}). ` +
      'Stop that process (Ctrl+C in its terminal) and run this command again.'
    );
  }
  if (owner.threadId !== threadId) {
    return (
      `The embedded database in ${dataDir} is already open in another thread of this process ` +
      `(${owner.holder}, thread ${owner.threadId}). The embedded database takes one opener at a time, and ` +
      '`netlify dev` runs every function call in a new thread, so writes would be lost. Run the site ' +
      'with `npm start`, or set DATABASE_URL to a PostgreSQL database to use `netlify dev`.'
    );
  }
  if (heldByThisThread) {
    return (
      `The embedded database in ${dataDir} is already open in this process (${owner.holder}): ` +
      'open it once and share that handle.'
    );
  }
  return undefined;
}

function lockOwner(file: string): Owner | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && 'pid' in parsed && typeof parsed.pid === 'number') {
      const holder = 'holder' in parsed && typeof parsed.holder === 'string' ? parsed.holder : 'another command';
      // A lock written before threads were recorded came from a main thread.
      const thread = 'threadId' in parsed && typeof parsed.threadId === 'number' ? parsed.threadId : 0;
      return { pid: parsed.pid, threadId: thread, holder };
    }
  } catch {
    // Unreadable: treat as stale.
  }
  return undefined;
}

/**
 * The lock files this thread holds. Kept on globalThis (one per thread) rather than in this
 * module, so that a second copy of the module in the same thread (Vite's SSR graph next to the
 * server's, in `npm run dev`) sees the same set.
 */
function heldHere(): Set<string> {
  const key = Symbol.for('li-net-to-seller.pglite-locks-held');
  const existing: unknown = Reflect.get(globalThis, key);
  if (isSetOfStrings(existing)) return existing;
  const created = new Set<string>();
  Reflect.set(globalThis, key, created);
  return created;
}

const isSetOfStrings = (value: unknown): value is Set<string> =>
  value instanceof Set && [...value].every((entry) => typeof entry === 'string');

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}
