import { ApiError } from '../accounts/public/account-query.ts';

/** The message for a failed upload: the server's own for a refused file (the spec's words), else `fallback`. */
export const uploadFailure = (error: Error, fallback: string): string =>
  error instanceof ApiError && (error.status === 400 || error.status === 413) ? error.message : fallback;
