/**
 * POST /api/images/upload from the browser with upload progress, which fetch() cannot report:
 * XMLHttpRequest, multipart with the file in the `image` field. Answers like sendJson: the parsed
 * answer, an ApiError for an error answer, a rejection when the request did not get through.
 */
import * as z from 'zod/mini';
import { ApiError } from '../accounts/public/account-query.ts';
import { imageUploadedSchema } from './public/showcase-settings.ts';

const errorSchema = z.object({ error: z.string(), fields: z._default(z.record(z.string(), z.string()), {}) });

export function uploadShowcaseImage(
  file: File,
  onProgress: (percent: number) => void,
): Promise<z.output<typeof imageUploadedSchema>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/api/images/upload');
    request.setRequestHeader('Accept', 'application/json');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    });
    request.addEventListener('error', () => reject(new Error('The upload did not get through')));
    request.addEventListener('load', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        // Not JSON (a proxy's error page): reported by status below.
      }
      const uploaded = imageUploadedSchema.safeParse(body);
      if (request.status === 200 && uploaded.success) return resolve(uploaded.data);
      const error = errorSchema.safeParse(body);
      reject(
        error.success
          ? new ApiError(request.status, error.data.error, error.data.fields)
          : new ApiError(request.status, `Request failed (${request.status})`),
      );
    });
    const form = new FormData();
    form.append('image', file);
    request.send(form);
  });
}
