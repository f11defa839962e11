import { describe, expect, it } from 'vitest';
import { pageLabel } from './lead-page.ts';

describe('pageLabel', () => {
  it.each([
    ['/', 'Home page'],
    ['/long-island-real-estate/bay-shore', 'Town page: Bay Shore'],
    ['/long-island-real-estate/bay-shore/', 'Town page: Bay Shore'],
    ['/long-island-real-estate/nassau-county', 'Nassau County page'],
    ['/long-island-real-estate/suffolk-county', 'Suffolk County page'],
    ['/r/alexmorgan', 'Your calculator page (/r/alexmorgan)'],
    ['/estimate/0b9f6a53-5d7a-4a7e-9d1f-3f0f6d1c2a11', 'Shared estimate page'],
    // A path the site does not have is shown as it is, never as a town.
    ['/long-island-real-estate/atlantis', 'Page /long-island-real-estate/atlantis'],
    ['/about-alexmorgan', 'Page /about-alexmorgan'],
  ])('names %s "%s"', (path, label) => {
    expect(pageLabel(path)).toBe(label);
  });
});
