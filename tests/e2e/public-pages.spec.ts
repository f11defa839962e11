import * as z from 'zod';
import { calculate, clickNav, expect, openHomeModal, recordApiCalls, submitContact, test } from './fixtures.ts';

test.describe('home page', () => {
  test('shows the showcase home and advances the carousel every 6 s, wrapping, with the pan marked after 5 s', async ({
    page,
  }) => {
    // A paused clock: only runFor moves it, however long the page takes to load.
    await page.clock.install({ time: new Date('2026-05-01T10:00:00Z') });
    await page.clock.pauseAt(new Date('2026-05-01T10:00:01Z'));
    await page.goto('/');
    const card = page.getByRole('figure', { name: 'Featured home' });
    await expect(card).toContainText('$780,200');
    await expect(card).toContainText('3 beds');
    await expect(card).toContainText('2 baths');
    await expect(card).toContainText('2,543 sqft');

    const carousel = page.locator('[data-carousel]');
    const slides = carousel.locator('[data-slide]');
    await expect(slides).toHaveCount(3);
    await expect(carousel).toHaveAttribute('data-current', '0');
    await expect(slides.nth(0)).not.toHaveAttribute('data-pan-complete');
    await page.clock.runFor(5_000);
    await expect(slides.nth(0)).toHaveAttribute('data-pan-complete');
    await page.clock.runFor(1_000);
    await expect(carousel).toHaveAttribute('data-current', '1');
    await expect(slides.nth(1)).not.toHaveAttribute('data-pan-complete');
    await page.clock.runFor(12_000);
    await expect(carousel).toHaveAttribute('data-current', '0');

    await page.getByRole('button', { name: 'Show photo 3' }).click();
    await expect(carousel).toHaveAttribute('data-current', '2');
    await expect(page.getByRole('button', { name: 'Show photo 3' })).toHaveAttribute('aria-current', 'true');
  });

  test('links to both counties, the six towns and the about page', async ({ page }) => {
    await page.goto('/');
    const explore = page.getByRole('region', { name: 'Explore Long Island' });
    for (const [name, href] of [
      ['Nassau County', '/long-island-real-estate/nassau-county'],
      ['Suffolk County', '/long-island-real-estate/suffolk-county'],
      ['Levittown', '/long-island-real-estate/levittown'],
      ['Hicksville', '/long-island-real-estate/hicksville'],
      ['Bay Shore', '/long-island-real-estate/bay-shore'],
      ['Freeport', '/long-island-real-estate/freeport'],
      ['Long Beach', '/long-island-real-estate/long-beach'],
      ['Smithtown', '/long-island-real-estate/smithtown'],
      ['About Alex Morgan', '/about-alexmorgan'],
    ] as const) {
      await expect(explore.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Create Your Calculator' })).toHaveAttribute('href', '/signup');
    await expect(footer.getByRole('link', { name: 'Agent Login' })).toHaveAttribute('href', '/auth');
    await expect(footer.getByRole('img', { name: 'Equal Housing Opportunity' })).toBeVisible();
    await expect(footer).toContainText('NYS License #10401234567');
  });

  test('calls to action are counted in the dataLayer', async ({ page }) => {
    await page.goto('/');
    await clickNav(page, 'Get Estimate');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await page.getByRole('contentinfo').getByRole('button', { name: 'Ask Alex to call you' }).click();
    await expect(page.getByRole('dialog', { name: /^Work with / })).toBeVisible();
    const events = await page.evaluate(() => window.dataLayer);
    const nav = test.info().project.name === 'phone' ? 'mobile_nav' : 'header_nav';
    expect(events).toEqual([
      { event: 'cta_net_to_seller', source_page: '/', location: nav },
      { event: 'cta_schedule_consultation', source_page: '/', location: 'footer_section' },
    ]);
  });
});

test.describe('small screens', () => {
  test('the menu opens, and closes when an item is chosen', async ({ page }) => {
    test.skip(test.info().project.name !== 'phone', 'the menu shows on small screens only');
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('button', { name: 'Contact' }).click();
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('dialog', { name: /^Work with / })).toBeVisible();
  });
});

test.describe('county pages', () => {
  for (const county of [
    {
      slug: 'nassau-county',
      name: 'Nassau County',
      stats: ['1.4M', '$650K', 'Active', '56'],
      towns: 47,
      source: 'nassau_county_page',
    },
    {
      slug: 'suffolk-county',
      name: 'Suffolk County',
      stats: ['1.5M', '$550K', 'Diverse', '70+'],
      towns: 72,
      source: 'suffolk_county_page',
    },
  ] as const) {
    test(`${county.name}: its own figures, every town, and leads marked with the county`, async ({ page }) => {
      const leads = recordApiCalls(page, '/api/leads');
      await page.goto(`/long-island-real-estate/${county.slug}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${county.name} Real Estate`);
      const stats = page.getByRole('region', { name: `${county.name} at a glance` }).locator('dd');
      await expect(stats).toHaveText([...county.stats]);
      const tiles = page.getByRole('region', { name: `Towns and communities in ${county.name}` }).getByRole('link');
      await expect(tiles).toHaveCount(county.towns);
      await expect(tiles.first()).toContainText('View Town');

      await clickNav(page, 'Contact');
      await submitContact(page, {
        firstName: 'Dana',
        lastName: 'Cole',
        phone: '5165550111',
        email: 'dana@example.com',
      });
      await expect(page.getByRole('status').filter({ hasText: 'Thank you! We will be in touch soon.' })).toBeVisible();
      expect(leads[0]?.body).toMatchObject({
        source: county.source,
        consent_marketing: true,
        agent_slug: 'alexmorgan',
        page: `/long-island-real-estate/${county.slug}`,
      });
    });
  }

  test('the mortgage balance is optional on county pages', async ({ page }) => {
    await openHomeModal(page, 'Get Estimate', '/long-island-real-estate/suffolk-county');
    await calculate(page, { firstName: 'Lee', price: '600000', mortgage: '' });
    await expect(page.getByTestId('net-proceeds')).toHaveText('Your Net Proceeds$560,675.00');
  });
});

test.describe('town pages', () => {
  test('a town shows its facts, empty market and sales states, neighbours and breadcrumbs', async ({ page }) => {
    await page.goto('/long-island-real-estate/bay-shore');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Selling Your Home in Bay Shore, NY');
    await expect(page).toHaveTitle(/Bay Shore/);
    // No data at all is said plainly, with the county's page to go on to (newcomer audit minor 15).
    await expect(page.getByText('We have no home value figures for Bay Shore.')).toBeVisible();
    await expect(page.getByText('No recent sales data available for Bay Shore')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Bay Shore at a glance' })).toContainText('11706');
    const nearby = page.getByRole('region', { name: 'Nearby communities' });
    await expect(nearby.getByRole('link', { name: 'Brightwaters' })).toHaveAttribute(
      'href',
      '/long-island-real-estate/brightwaters',
    );
    await expect(nearby.getByRole('link', { name: 'All of Suffolk County' })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Suffolk County' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: /^Call \(631\) 555-0142$/ })).toHaveAttribute(
      'href',
      'tel:+16315550142',
    );
    const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
    const types = jsonLd.map((text) => z.object({ '@type': z.string() }).parse(JSON.parse(text))['@type']);
    expect(types).toEqual(['Place', 'RealEstateAgent', 'BreadcrumbList']);

    await page.getByRole('main').getByRole('button', { name: 'Get My Estimate' }).click();
    await expect(page.getByRole('dialog', { name: 'What Will You Net?' })).toBeVisible();
  });

  test.describe('an unknown town', () => {
    test.use({ consoleErrorsAllowed: [/status of 404/] });
    test('shows Town Not Found with a 404 status and a way home', async ({ page }) => {
      const response = await page.goto('/long-island-real-estate/atlantis');
      expect(response?.status()).toBe(404);
      await expect(page.getByRole('heading', { name: 'Town Not Found' })).toBeVisible();
      await page.getByRole('link', { name: 'Return Home' }).click();
      await expect(page).toHaveURL('/');
    });
  });
});

test.describe('about, legal and not-found pages', () => {
  test('the about page presents the agent and links to every town', async ({ page }) => {
    await page.goto('/about-alexmorgan');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('About Alex Morgan');
    await expect(page.getByRole('region', { name: 'Where Alex works' }).getByRole('link')).toHaveCount(119 + 2);
    await expect(page.getByRole('link', { name: 'Call (631) 555-0142' }).first()).toHaveAttribute(
      'href',
      'tel:+16315550142',
    );
  });

  for (const [path, title] of [
    ['/privacy', 'Privacy Policy'],
    ['/terms', 'Terms of Service'],
  ] as const) {
    test(`${title} shows when it was last updated and leads back home`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page.getByText(/^Last updated: [A-Z][a-z]+ \d{1,2}, \d{4}$/)).toBeVisible();
      await page.getByRole('link', { name: 'Back to Home', exact: true }).click();
      await expect(page).toHaveURL('/');
    });
  }

  test.describe('a mistyped address', () => {
    test.use({ consoleErrorsAllowed: [/status of 404/] });
    test('offers the calculator of the featured agent', async ({ page }) => {
      await page.goto('/nothing-here');
      await expect(page.getByRole('link', { name: 'Try Calculator' })).toHaveAttribute('href', '/r/alexmorgan');
    });
  });

  test('robots.txt and the sitemap list the public pages', async ({ request }) => {
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toContain('Sitemap: ');
    expect(robots).toContain('Disallow: /api/');
    const sitemap = await (await request.get('/sitemap-0.xml')).text();
    expect(sitemap).toContain('/long-island-real-estate/bay-shore/');
    expect(sitemap).toContain('/about-alexmorgan/');
    expect(sitemap).not.toContain('/estimate/');
  });
});
