// Child of bench-coldstart: one cold start of a bundled Netlify function, in a fresh Node process as
// a new function instance is. bench-coldstart compiles this file to plain JavaScript first and runs
// it with no loader: Node's own TypeScript stripping costs ~150 ms at start-up here, which no
// deployed function pays.
//
//   node coldstart-probe.mjs <function module> <url>
//
// Prints one JSON line: milliseconds since the process started (performance's time origin) when
// the import began, when it ended and when the first answer's body was read, and that answer.
import { pathToFileURL } from 'node:url';

const [file, url] = process.argv.slice(2);
if (!file || !url) throw new Error('usage: coldstart-probe.mjs <function module> <url>');

// A v2 function: a web Request and Netlify's context in, a Response out. (No zod here: the probe
// loads nothing before the function's import, so both bundles start from the same bare process.)
type Handler = (request: Request, context: object) => Response | Promise<Response>;
const isHandler = (value: unknown): value is Handler => typeof value === 'function';

const started = performance.now();
const loaded: unknown = await import(pathToFileURL(file).href);
const imported = performance.now();
const handler: unknown = typeof loaded === 'object' && loaded !== null ? Reflect.get(loaded, 'default') : undefined;
if (!isHandler(handler)) throw new Error(`${file} has no default export to call`);
// Only what the functions here read of the context.
const context = { ip: '127.0.0.1', waitUntil: () => undefined, geo: {}, params: {}, deploy: { context: 'production' } };
const response = await handler(new Request(url), context);
const body = await response.text();
const answered = performance.now();

console.log(JSON.stringify({ started, imported, answered, status: response.status, bytes: body.length }));
// The database pool and its sockets would keep the process alive; the measurement is done.
process.exit(0);
