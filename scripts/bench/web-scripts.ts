// The JavaScript a page of bench:web fetches before any interaction, measured in Chromium.
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright';

export interface ScriptFigures {
  scripts: number;
  rawBytes: number;
  gzipBytes: number;
  inlineGzipBytes: number;
  error?: string;
}

/**
 * The JavaScript a visitor's browser fetches before touching the page (a phone, fresh cache). With
 * `cookie` (`name=value`), signed in, for the signed-in screens.
 */
export async function scriptsBeforeInteraction(
  launched: Browser,
  url: string,
  cookie?: string,
): Promise<ScriptFigures> {
  const context = await launched.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  try {
    if (cookie) {
      const [name = '', value = ''] = cookie.split(/=(.*)/s);
      // For the site's root: with the screen's URL, Playwright would scope the cookie to its folder
      // (/dashboard/), and the screen's API calls would go without it.
      await context.addCookies([{ name, value, url: new URL('/', url).href }]);
    }
    const page = await context.newPage();
    const bodies: Promise<Buffer | undefined>[] = [];
    page.on('response', (response) => {
      // Caught here, reported below: a body read after a navigation fails, and must not end the run.
      if (response.request().resourceType() === 'script') bodies.push(response.body().catch(() => undefined));
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    // Islands hydrating on idle load after the page settles: let them, then wait for quiet again.
    await page.evaluate(
      () => new Promise((resolvePromise) => requestIdleCallback(() => resolvePromise(null), { timeout: 2_000 })),
    );
    await page.waitForLoadState('networkidle');
    const read = await Promise.all(bodies);
    const buffers = read.filter((body) => body !== undefined);
    if (buffers.length < read.length)
      throw new Error(`${read.length - buffers.length} script bodies were lost to a navigation`);
    if (new URL(page.url()).pathname !== new URL(url).pathname) throw new Error(`the page went to ${page.url()}`);
    const inline = await page.$$eval('script:not([src])', (scripts) =>
      scripts
        .filter((script) => {
          const type = script.getAttribute('type');
          return !type || /javascript|module/.test(type);
        })
        .map((script) => script.textContent ?? '')
        .join('\n'),
    );
    return {
      scripts: buffers.length,
      rawBytes: buffers.reduce((sum, body) => sum + body.length, 0),
      gzipBytes: buffers.reduce((sum, body) => sum + gzipSync(body).length, 0),
      inlineGzipBytes: inline ? gzipSync(inline).length : 0,
    };
  } catch (error) {
    return {
      scripts: 0,
      rawBytes: 0,
      gzipBytes: 0,
      inlineGzipBytes: 0,
      error: error instanceof Error ? error.message : String(error),
    };
  } finally {
    await context.close();
  }
}
