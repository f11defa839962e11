/**
 * Vitest globalSetup of the integration project: one real PostgreSQL server and one WebSocket proxy
 * in front of it for the whole run. Test files reach them with inject('postgresUrl') and
 * inject('wsProxy'); each file creates its own database there (see backends.ts).
 */
import type { TestProject } from 'vitest/node';
import { start } from './postgres.ts';
import { startWsProxy } from './ws-proxy.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser connection string of the test server's maintenance database ("postgres"). */
    postgresUrl: string;
    /** host:port of the WebSocket-to-TCP proxy, for openNeon(url, { wsProxy }). */
    wsProxy: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await start();
  let proxy;
  try {
    proxy = await startWsProxy();
  } catch (error) {
    await postgres.stop();
    throw error;
  }
  project.provide('postgresUrl', postgres.connectionString);
  project.provide('wsProxy', proxy.address);
  const running = proxy;
  return async () => {
    await running.stop();
    await postgres.stop();
  };
}
