// The benchmarks' servers run as child processes, off the load generator's event loop: each
// prints `LISTENING <address>` when ready and answers a "round-trips" message with its database's.
import { spawn, type ChildProcess } from 'node:child_process';
import { z } from 'zod';

/** Starts a child that prints `LISTENING <address>`; resolves with that address. */
export function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /LISTENING (\S+)/.exec(chunk.toString());
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** Database round trips the API child has made so far. */
export function roundTripsOfChild(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message: unknown) => {
      resolve(z.object({ roundTrips: z.number() }).parse(message).roundTrips);
    });
    child.send('round-trips');
  });
}

export type ChildProcessLike = ChildProcess;
