/**
 * Uploads a market-data file through the real routes with the very code /admin/data runs in the
 * browser (src/features/market/upload-chunks.ts), as a signed-in client, recording the size of
 * every request body it sends.
 */
import { uploadMarketFile, type ApiFetch } from '../../src/features/market/upload-chunks.ts';
import type { UploadKind } from '../../src/features/market/data-admin.ts';
import { IP_HEADER, SESSION_COOKIE, type AuthSuite, type Client } from './auth-suite.ts';

/** The client's requests as its page would send them: its cookie and IP, the site's Origin. */
export function clientFetch(suite: AuthSuite, client: Client, bodySizes: number[] = []): ApiFetch {
  return (path, init) => {
    bodySizes.push(typeof init.body === 'string' ? Buffer.byteLength(init.body) : init.body.byteLength);
    return suite.api.fetch(path, {
      method: init.method,
      headers: {
        ...init.headers,
        origin: suite.api.origin,
        [IP_HEADER]: client.ip,
        ...(client.session === undefined ? {} : { cookie: `${SESSION_COOKIE}=${client.session}` }),
      },
      body: init.body,
    });
  };
}

/** Uploads `content` as a file named `name`; answers the queued run ids. */
export async function uploadThroughRoutes(
  suite: AuthSuite,
  client: Client,
  kind: UploadKind,
  name: string,
  content: string | Uint8Array<ArrayBuffer>,
  bodySizes: number[] = [],
): Promise<number[]> {
  const file = new Blob([content]);
  const { run_ids: ids } = await uploadMarketFile({
    kind,
    name,
    size: file.size,
    stream: file.stream(),
    fetch: clientFetch(suite, client, bodySizes),
  });
  return ids;
}
