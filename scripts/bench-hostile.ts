// npm run bench:hostile [-- --before DIR]: findings 3 and 4 of the security audit of 2026-11-26,
// against a real server (scripts/bench/hostile-server.ts: the API over HTTP on 127.0.0.1, in-memory
// PGlite, demo accounts). For each request: its wall time and the CPU time the server spent on it
// (every thread). Then the login latency while four of the audit's SVG uploads (1000 px, or 2000 px with `--side 2000`)
// run at once (budget: 300 ms), and the PDF with a noisy 1200 px logo (budget: under 300 KB). With
// `--before DIR` (a checkout of main, node_modules linked) the same run goes first against that
// checkout's code, and the figures are printed side by side with their ratios.
// Every loop is bounded; every request gives up after five minutes.
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import * as z from 'zod';
import { askChild, startChild, type ChildProcessLike } from './bench/children.ts';

const REQUEST_TIMEOUT_MS = 300_000;
const LOGIN_BUDGET_MS = 300;
const sideIndex = process.argv.indexOf('--side');
const CONCURRENT_SIDE = sideIndex > 0 ? Number(process.argv[sideIndex + 1]) : 1000;
const PDF_BUDGET_BYTES = 300 * 1024;
const AGENT = { email: 'agent@example.com', password: 'demo-agent-password' };
const ADMIN = { email: 'admin@example.com', password: 'demo-admin-password' };

const hostileSvg = (side: number): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}"><filter id="f" x="0" y="0" width="100%" height="100%">
<feTurbulence baseFrequency="0.01" numOctaves="10"/><feGaussianBlur stdDeviation="200"/><feMorphology operator="dilate" radius="50"/>
</filter><rect width="100%" height="100%" filter="url(#f)"/></svg>`;
const svgDataUrl = (side: number) => `data:image/svg+xml;base64,${Buffer.from(hostileSvg(side)).toString('base64')}`;

/**
 * Within the SVG rules, the most drawing they allow: one path of long stroked lines crossing the
 * picture, just under the 128 KB limit. Its render runs past the budget and is stopped.
 */
function heavyPlainSvg(): string {
  const points = Array.from({ length: 14_500 }, (_, i) => `L${(i * 37) % 600} ${(i * 91) % 600}`).join(' ');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><path d="M0 0 ${points}" stroke="#000" fill="none"/></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

async function noisyJpegDataUrl(side: number): Promise<string> {
  const pixels = Buffer.alloc(side * side * 3);
  let state = 0x9e3779b9;
  for (let i = 0; i < pixels.length; i += 1) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    pixels[i] = state & 0xff;
  }
  const jpeg = await sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .jpeg({ quality: 70 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

interface Timed {
  status: number;
  bytes: number;
  wallMs: number;
  cpuMs: number;
}

type Figures = Record<string, number>;

async function benchServer(label: string, root: string): Promise<Figures> {
  const script = join(root, 'scripts/bench/hostile-server.ts');
  // The server of this checkout, run from the other one's code (same relative imports).
  if (!existsSync(script)) copyFileSync(new URL('./bench/hostile-server.ts', import.meta.url), script);
  const { child, url } = await startChild(script, {});
  const figures: Figures = {};
  try {
    await run(label, child, url, figures);
  } finally {
    child.kill();
  }
  return figures;
}

const cpuOf = async (child: ChildProcessLike) => (await askChild(child, 'cpu', z.object({ cpuMs: z.number() }))).cpuMs;

async function run(label: string, child: ChildProcessLike, url: string, figures: Figures): Promise<void> {
  const request = async (path: string, init: RequestInit = {}, cookie = ''): Promise<Response> =>
    fetch(`${url}${path}`, {
      ...init,
      headers: { origin: url, 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...init.headers },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  /** One request alone: its wall time and the server's CPU time meanwhile. */
  const timed = async (path: string, init: RequestInit = {}, cookie = ''): Promise<Timed> => {
    const cpu = await cpuOf(child);
    const started = performance.now();
    const response = await request(path, init, cookie);
    const bytes = (await response.arrayBuffer()).byteLength;
    const wallMs = performance.now() - started;
    return { status: response.status, bytes, wallMs, cpuMs: (await cpuOf(child)) - cpu };
  };
  const login = async (account: { email: string; password: string }) => {
    const started = performance.now();
    const response = await request('/api/auth/login', { method: 'POST', body: JSON.stringify(account) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${label}: login ${account.email} answered ${response.status}`);
    return {
      ms: performance.now() - started,
      cookie: (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '',
    };
  };
  const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });
  const show = (name: string, result: Timed) => {
    console.log(
      `[${label}] ${name}: ${result.status}, ${result.bytes} B, wall ${result.wallMs.toFixed(0)} ms, server CPU ${result.cpuMs.toFixed(0)} ms`,
    );
    figures[`${name}: wall ms`] = result.wallMs;
    figures[`${name}: server CPU ms`] = result.cpuMs;
  };

  const agent = (await login(AGENT)).cookie;
  const baseline: number[] = [];
  for (let i = 0; i < 3; i += 1) baseline.push((await login(ADMIN)).ms);
  figures['login alone: max ms'] = Math.max(...baseline);
  console.log(`[${label}] login alone: ${baseline.map((ms) => ms.toFixed(0)).join(', ')} ms`);

  show('SVG upload 1000 px', await timed('/api/upload/logo', post({ imageData: svgDataUrl(1000) }), agent));
  show('SVG upload 2000 px', await timed('/api/upload/logo', post({ imageData: svgDataUrl(2000) }), agent));
  show(
    'non-admin website-logo 2000 px SVG',
    await timed('/api/upload/website-logo', post({ image: svgDataUrl(2000) }), agent),
  );

  /**
   * `make` four times at once, and logins one after another from the start (3 at most, one more
   * while any upload still runs): the login latency while they run.
   */
  const loginsDuring = async (name: string, make: () => Promise<Response>, account: typeof ADMIN) => {
    const cpu = await cpuOf(child);
    const started = performance.now();
    let running = 4;
    const statuses: number[] = [];
    const uploads = Array.from({ length: 4 }, () =>
      make()
        .then(async (response) => {
          statuses.push(response.status);
          await response.arrayBuffer();
        })
        .finally(() => (running -= 1)),
    );
    const logins: number[] = [];
    while (logins.length < 3 || (running > 0 && logins.length < 4)) logins.push((await login(account)).ms);
    const stillRunning = running;
    await Promise.allSettled(uploads);
    figures[`${name}: wall ms`] = performance.now() - started;
    figures[`${name}: server CPU ms`] = (await cpuOf(child)) - cpu;
    figures[`login during ${name}: max ms`] = Math.max(...logins);
    console.log(
      `[${label}] ${name}: ${statuses.join(', ')}, wall ${figures[`${name}: wall ms`]?.toFixed(0)} ms, server CPU ${figures[`${name}: server CPU ms`]?.toFixed(0)} ms; logins meanwhile: ${logins.map((ms) => ms.toFixed(0)).join(', ')} ms (${stillRunning} upload(s) still running after them)`,
    );
  };
  // Logins are limited to 10 per address in 15 minutes: the admin's 3 above and 4 here, the agent's 1 and 4.
  await loginsDuring(
    `4 SVG uploads at once (${CONCURRENT_SIDE} px)`,
    () => request('/api/upload/logo', post({ imageData: svgDataUrl(CONCURRENT_SIDE) }), agent),
    ADMIN,
  );
  if (label === 'after') {
    // The most drawing an SVG within the rules asks for: the time budget stops it. (Not sent to the
    // code before, where nothing would stop it.)
    show(
      'heaviest SVG within the rules (128 KB of lines)',
      await timed('/api/upload/logo', post({ imageData: heavyPlainSvg() }), agent),
    );
  }

  // The PDF with a noisy 1200 px logo.
  const noisy = await noisyJpegDataUrl(1200);
  show('noisy 1200 px logo upload', await timed('/api/upload/logo', post({ imageData: noisy, showLogo: true }), agent));
  const profile = z
    .object({ profile: z.object({ slug: z.string() }) })
    .parse(await (await request('/api/agents/profile', {}, agent)).json());
  const estimate = async () =>
    z
      .object({ estimate: z.object({ uuid: z.string() }) })
      .parse(
        await (
          await request(
            '/api/estimates',
            post({ agent_slug: profile.profile.slug, sale_price: 780200, mortgage_payoff: 1 }),
          )
        ).json(),
      ).estimate.uuid;
  const uuid = await estimate();
  show('PDF, first', await timed(`/api/estimates/${uuid}/pdf`));
  show('PDF, again', await timed(`/api/estimates/${uuid}/pdf`));
  figures['PDF bytes'] = (await timed(`/api/estimates/${uuid}/pdf`)).bytes;
  // A trivial read while another estimate's first PDF is being made.
  const other = await estimate();
  const pdf = request(`/api/estimates/${other}/pdf`).then((response) => response.arrayBuffer());
  await new Promise((done) => setTimeout(done, 50));
  const trivial = performance.now();
  await (await request('/api/global/settings')).arrayBuffer();
  figures['GET /api/global/settings during a PDF: ms'] = performance.now() - trivial;
  await pdf;
  console.log(
    `[${label}] PDF ${figures['PDF bytes']} B; GET /api/global/settings while a PDF is made: ${figures['GET /api/global/settings during a PDF: ms']?.toFixed(0)} ms`,
  );

  // What an attacker can still send: the heaviest images accepted (random pixels, 1200 px).
  try {
    await loginsDuring(
      '4 noisy 1200 px logo uploads at once',
      () => request('/api/upload/logo', post({ imageData: noisy }), agent),
      AGENT,
    );
  } catch (error) {
    // The code before (main) may not survive it: say so, and keep the figures measured so far.
    console.log(`[${label}] 4 noisy 1200 px logo uploads at once: failed (${String(error)}; did the server stop?)`);
  }
}

const beforeIndex = process.argv.indexOf('--before');
const beforeRoot = beforeIndex > 0 ? process.argv[beforeIndex + 1] : undefined;
const results: [string, Figures][] = [];
if (beforeRoot) results.push(['before', await benchServer('before', resolve(beforeRoot))]);
const after = await benchServer('after', resolve('.'));
results.push(['after', after]);

console.log(
  '\n| figure | ' + results.map(([label]) => label).join(' | ') + (beforeRoot ? ' | before / after |' : ' |'),
);
console.log('| --- | ' + results.map(() => '---').join(' | ') + (beforeRoot ? ' | --- |' : ' |'));
for (const name of Object.keys(after)) {
  const values = results.map(([, figures]) => figures[name] ?? NaN);
  const ratio =
    beforeRoot && values[0] !== undefined && !Number.isNaN(values[0]) && values[1]
      ? ` | ${(values[0] / values[1]).toFixed(1)}x |`
      : ' |';
  console.log(
    `| ${name} | ${values.map((value) => (Number.isNaN(value) ? '-' : value.toFixed(0))).join(' | ')}${ratio}`,
  );
}
const loginsDuringUploads = Object.entries(after)
  .filter(([name]) => /^login during 4 .* max ms$/.test(name))
  .map(([, ms]) => ms);
const budgets = [
  [
    `a login during four hostile uploads answers within ${LOGIN_BUDGET_MS} ms`,
    // Every phase of four hostile uploads at once (the audit's SVGs, noisy logos): its slowest login.
    loginsDuringUploads.length > 0 && loginsDuringUploads.every((ms) => ms <= LOGIN_BUDGET_MS),
  ],
  [
    `the PDF with a noisy 1200 px logo is under ${PDF_BUDGET_BYTES / 1024} KB`,
    (after['PDF bytes'] ?? Infinity) < PDF_BUDGET_BYTES,
  ],
] as const;
for (const [text, ok] of budgets) console.log(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
process.exitCode = budgets.every(([, ok]) => ok) ? 0 : 1;
