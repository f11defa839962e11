/**
 * A stand-in for Netlify's cache purge (purgeCache of @netlify/functions): it records the tags of
 * each call, and fails every call while `failing` is set (the purge API down or refusing the token).
 */
import type { EdgePurger } from '../../src/platform/edge-cache.ts';

export interface RecordingPurger {
  readonly purge: EdgePurger;
  /** The tags of each call since the last reset, in order. */
  readonly calls: (readonly string[])[];
  failing: boolean;
  reset(): void;
}

export function recordingPurger(): RecordingPurger {
  const self: RecordingPurger = {
    calls: [],
    failing: false,
    purge(tags) {
      self.calls.push([...tags]);
      return self.failing
        ? Promise.reject(new Error('Cache purge API call returned an unexpected status code: 503'))
        : Promise.resolve();
    },
    reset() {
      self.calls.length = 0;
      self.failing = false;
    },
  };
  return self;
}
