import { parseEnv, type Env } from './env.ts';

/** What a Netlify function's invocation carries that matters here (the Functions API's Context). */
export interface InvocationContext {
  deploy?: { context?: string };
}

/** The deploy context of an invocation; the CLI's local runtimes may not give one (local anyway). */
export const deployContextOf = (context: InvocationContext): string | undefined => context.deploy?.context;

/**
 * What one function instance builds once (its database, its app), at its first invocation: only
 * the invocation says the deploy context (`context.deploy.context`), which decides the database and
 * the providers (decision 0030). A deployed function without what it needs refuses every request
 * with parseEnv's message, naming what is missing and the context.
 */
export function perInstance<T>(start: (env: Env) => Promise<T>): (context: InvocationContext) => Promise<T> {
  let started: Promise<T> | undefined;
  return (context) => {
    if (!started) {
      const starting = Promise.resolve().then(() =>
        start(parseEnv(process.env, { deployContext: deployContextOf(context) })),
      );
      // A start that failed (the database briefly unreachable) is tried again by the next invocation,
      // rather than leaving the instance refusing every request until Netlify recycles it.
      starting.catch(() => {
        if (started === starting) started = undefined;
      });
      started = starting;
    }
    return started;
  };
}
