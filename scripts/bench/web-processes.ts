// The child processes of bench:web (the seed, the build, the server, Lighthouse): run to their end,
// waited for, stopped; every one started is in `children`, so a failed run stops them all.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { ROOT } from './web-root.ts';

export const children = new Set<ChildProcess>();

/** Runs a command to its end; resolves with its exit code and output. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = ROOT) {
  return new Promise<{ code: number; output: string }>((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      children.delete(child);
      resolvePromise({ code: code ?? 1, output });
    });
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePromise(port));
    });
  });
}

export async function waitForServer(url: string, server: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`scripts/serve.ts exited with ${server.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 200));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs / 1000} s`);
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolvePromise();
    });
    child.kill('SIGTERM');
  });
}
