import { describe, expect, it } from 'vitest';
import { ApiError } from './account-query.ts';
import { CHECK_FIELDS, saveFailureMessage } from './save-failure.ts';

const words = { failed: 'Failed to update profile. Please try again.', unreachable: 'An error occurred' };

describe('the notice of a save that did not go through (audit minor 6)', () => {
  it('sums up a refusal with field errors instead of saying "Failed to …"', () => {
    expect(saveFailureMessage(new ApiError(400, 'Website is invalid', { website: 'Website is invalid' }), words)).toBe(
      CHECK_FIELDS,
    );
    expect(saveFailureMessage(new ApiError(422, 'Rate is too high', { rate: 'Rate is too high' }), words)).toBe(
      CHECK_FIELDS,
    );
  });

  it("gives the server's words for a refusal of the whole request", () => {
    expect(saveFailureMessage(new ApiError(429, 'Too many saves. Try again in 5 minutes.'), words)).toBe(
      'Too many saves. Try again in 5 minutes.',
    );
  });

  it('keeps "Failed to …" for a server fault and the network words for no answer', () => {
    expect(saveFailureMessage(new ApiError(500, 'Internal error'), words)).toBe(words.failed);
    expect(saveFailureMessage(new TypeError('fetch failed'), words)).toBe(words.unreachable);
    expect(saveFailureMessage(new TypeError('fetch failed'), { failed: 'Failed to add agent' })).toBe(
      'Failed to add agent',
    );
  });
});
