import { resolve } from 'node:path';

/** The repository's root, where bench:web runs its commands. */
export const ROOT = resolve(import.meta.dirname, '..', '..');
