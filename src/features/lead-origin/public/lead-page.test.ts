import { describe, expect, it } from 'vitest';
import { leadSourceLabel, pageLabel } from './lead-page.ts';

describe('pageLabel', () => {
  it.each([
    ['/', 'Home page'],
    ['/long-island-real-estate/bay-shore', 'Town page: Bay Shore'],
    ['/long-island-real-estate/bay-shore/', 'Town page: Bay Shore'],
    ['/long-island-real-estate/nassau-county', 'Nassau County page'],
    ['/long-island-real-estate/suffolk-county', 'Suffolk County page'],
    ['/r/alexmorgan', 'Calculator page /r/alexmorgan'],
    ['/estimate/0b9f6a53-5d7a-4a7e-9d1f-3f0f6d1c2a11', 'Estimate page'],
    ['/offers/0b9f6a53-5d7a-4a7e-9d1f-3f0f6d1c2a11', 'Offers page'],
    // A path the site does not have is shown as it is, never as a town.
    ['/long-island-real-estate/atlantis', 'Page /long-island-real-estate/atlantis'],
    ['/about-alexmorgan', 'About page /about-alexmorgan'],
    ['/dashboard', 'Page /dashboard'],
  ])('names %s "%s"', (path, label) => {
    expect(pageLabel(path)).toBe(label);
  });
});

describe('leadSourceLabel', () => {
  it('names the page when the form sent it, whatever its source (a town-page contact is not "Showcase")', () => {
    expect(leadSourceLabel('showcase', '/long-island-real-estate/huntington')).toBe('Town page: Huntington');
    expect(leadSourceLabel('showcase', '/')).toBe('Home page');
  });
  it("names a lead without a page by its form's source", () => {
    expect(leadSourceLabel('showcase', null)).toBe('Home page');
    expect(leadSourceLabel('calculator', null)).toBe('Calculator');
    expect(leadSourceLabel('suffolk_county_page', undefined)).toBe('Suffolk County page');
  });
});
