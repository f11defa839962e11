import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { lockPgliteDir } from './pglite-lock.ts';

const HANG = { timeout: 120_000 };
const lockFile = (dir: string) => join(dir, 'in-use.lock');
const newDir = () => mkdtempSync(join(tmpdir(), 'lock-'));

/** What the refusal to a second thread says: why, and what to run instead. */
const OTHER_THREAD =
  /already open in another thread of this process \(.+, thread \d+\)\..*`netlify dev` runs every function call in a new thread.*`npm start`.*DATABASE_URL/;

describe('lockPgliteDir', () => {
  it('refuses a second holder while the first lives, and says what to do', () => {
    const dir = newDir();
    writeFileSync(lockFile(dir), JSON.stringify({ pid: process.ppid, threadId: 0, holder: 'npm start' }));
    expect(() => lockPgliteDir(dir, 'npm run data:refresh')).toThrow(
      /in use by npm start \(pid \d+\)\. Stop that process .* and run this command again/,
    );
  });

  it('takes over a lock left by a dead process and releases it', () => {
    const dir = newDir();
    writeFileSync(lockFile(dir), JSON.stringify({ pid: 2 ** 22 + 12345, threadId: 0, holder: 'gone' }));
    const release = lockPgliteDir(dir, 'test');
    expect(JSON.parse(readFileSync(lockFile(dir), 'utf8'))).toEqual({ pid: process.pid, threadId, holder: 'test' });
    release();
    expect(existsSync(lockFile(dir))).toBe(false);
    lockPgliteDir(dir, 'again')();
  });

  it('refuses a second opener in the same thread while the first holds it', () => {
    const dir = newDir();
    const release = lockPgliteDir(dir, 'first');
    expect(() => lockPgliteDir(dir, 'second')).toThrow(/already open in this process \(first\)/);
    release();
    lockPgliteDir(dir, 'second')();
  });

  it("takes over its own pid and thread's lock when this thread does not hold it (a restarted container's pid)", () => {
    const dir = newDir();
    writeFileSync(lockFile(dir), JSON.stringify({ pid: process.pid, threadId, holder: 'an earlier run' }));
    lockPgliteDir(dir, 'now')();
  });

  // Worker threads: each starts a Node thread and loads a module or two, a bounded piece of work
  // that takes seconds on a loaded machine, so the time limits of these two only catch a hang.
  it('refuses a worker thread while this thread holds the lock, and lets it in once released', HANG, async () => {
    const dir = newDir();
    const release = lockPgliteDir(dir, 'npm start');
    const refused = await startWorker(dir, 'lock');
    const answer = await refused.opened;
    expect(answer.opened ? 'opened' : answer.refusal).toMatch(OTHER_THREAD);
    await refused.ended;

    release();
    const admitted = await startWorker(dir, 'lock');
    expect(await admitted.opened).toEqual({ opened: true });
    // Held by the worker now: this thread is refused in turn, with the worker's thread named.
    expect(() => lockPgliteDir(dir, 'main')).toThrow(OTHER_THREAD);
    await admitted.release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  // The one that opens PGlite (16 MB of WebAssembly) creates a database: 15-45 s at load 10-13.
  it('lets only one of two workers of one process open PGlite on one directory', HANG, async () => {
    const dir = newDir();
    const workers = await Promise.all([startWorker(dir, 'open'), startWorker(dir, 'open')]);
    const answers = await Promise.all(workers.map((worker) => worker.opened));
    const opened = workers.filter((_, i) => answers[i]?.opened === true);
    const refusals = answers.flatMap((answer) => (answer.opened ? [] : [answer.refusal]));
    expect(opened).toHaveLength(1);
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(OTHER_THREAD);

    await opened[0]?.release();
    await Promise.all(workers.map((worker) => worker.ended));
    expect(existsSync(lockFile(dir))).toBe(false);
  });
});

const openedMessage = z.union([
  z.object({ opened: z.literal(true) }),
  z.object({ opened: z.literal(false), refusal: z.string() }),
]);
const releasedMessage = z.object({ released: z.literal(true) });

interface RunningWorker {
  /** Its first message: opened, or refused and why. */
  opened: Promise<z.infer<typeof openedMessage>>;
  /** Asks it to close what it opened; resolves once it has. */
  release(): Promise<void>;
  /** Resolves when the thread has ended. */
  ended: Promise<number>;
}

/** A worker thread of this process that locks or opens the embedded database in `dir` (tests/support/embedded-db-worker.ts). */
async function startWorker(dir: string, how: 'lock' | 'open'): Promise<RunningWorker> {
  const worker = new Worker(new URL('../../tests/support/embedded-db-worker.ts', import.meta.url), {
    workerData: { dataDir: dir, how },
  });
  const messages: unknown[] = [];
  const waiting: ((message: unknown) => void)[] = [];
  worker.on('message', (message: unknown) => {
    const next = waiting.shift();
    if (next) next(message);
    else messages.push(message);
  });
  const failed = new Promise<never>((_, reject) => worker.once('error', reject));
  const nextMessage = () =>
    Promise.race([
      messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise<unknown>((done) => waiting.push(done)),
      failed,
    ]);
  const ended = new Promise<number>((done) => worker.once('exit', done));
  await new Promise<void>((online, reject) => {
    worker.once('online', online);
    worker.once('error', reject);
  });
  return {
    opened: nextMessage().then((message) => openedMessage.parse(message)),
    async release() {
      worker.postMessage('release');
      releasedMessage.parse(await nextMessage());
      await ended;
    },
    ended,
  };
}
