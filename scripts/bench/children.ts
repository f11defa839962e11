// The benchmarks' servers run as child processes, off the load generator's event loop: each
// prints `LISTENING <address>` when ready and answers a "round-trips" message with its database's.
// A worker that serves nothing (the market refresh of bench-load) prints `READY` instead and is
// steered by messages (askChild).
import { spawn, type ChildProcess } from 'node:child_process';
import * as z from 'zod';

/** Spawns `script` with `env` on top of ours; resolves with the first capture of `ready` in its output. */
function spawnUntil(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; captured: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = ready.exec(chunk.toString());
      if (match) resolve({ child, captured: match[1] ?? '' });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** Starts a child that prints `LISTENING <address>`; resolves with that address. */
export async function startChild(
  script: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string }> {
  const { child, captured } = await spawnUntil(script, env, /LISTENING (\S+)/);
  return { child, url: captured };
}

/** Starts a child that prints `READY` once it listens for messages. */
export async function startWorker(script: string, env: Record<string, string>): Promise<ChildProcess> {
  return (await spawnUntil(script, env, /READY/)).child;
}

/** Sends `message` to `child` and resolves with its answer, parsed by `answer`. */
export function askChild<T>(child: ChildProcess, message: string, answer: z.ZodType<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (reply: unknown) => {
      const parsed = answer.safeParse(reply);
      if (parsed.success) resolve(parsed.data);
      else reject(new Error(`unexpected answer to "${message}": ${JSON.stringify(reply)}`));
    });
    child.send(message);
  });
}

/** Database round trips the API child has made so far. */
export async function roundTripsOfChild(child: ChildProcess): Promise<number> {
  return (await askChild(child, 'round-trips', z.object({ roundTrips: z.number() }))).roundTrips;
}

export type ChildProcessLike = ChildProcess;
