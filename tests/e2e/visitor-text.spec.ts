// What a visitor reads: words that Astro's whitespace handling once ran together ("NY11743",
// "Morganor", "toOct", "County ›Huntington"), "1 bath", the price chart's axis, and the label on
// the shipped sample market data (the e2e server's first seed imports it; its real import then
// replaces Huntington's and Smithtown's, see playwright.config.ts).
import * as z from 'zod';
import { formatPrice, formatPriceShort } from '../../src/ui/money.ts';
import { expect, test } from './fixtures.ts';

const SAMPLE_NOTICE = 'Sample data — for demonstration, not real market figures';

test.describe('words keep their spaces', () => {
  test('the footer: the office address and the phone · e-mail line', async ({ page }) => {
    await page.goto('/');
    const about = page.getByRole('contentinfo').getByRole('region', { name: 'Alex Morgan' });
    await expect(about).toContainText('100 Main Street, Huntington, NY 11743', { useInnerText: true });
    await expect(about).toContainText('(631) 555-0142 · alex.morgan@example.com', { useInnerText: true });
  });

  test('the privacy policy and the terms', async ({ page }) => {
    await page.goto('/privacy');
    const privacy = page.getByRole('article');
    await expect(privacy).toContainText('to let Alex Morgan or the agent whose page you used', { useInnerText: true });
    await expect(privacy).toContainText('by writing to alex.morgan@example.com.', { useInnerText: true });
    await page.goto('/terms');
    await expect(page.getByRole('article')).toContainText(
      'Questions about these terms: alex.morgan@example.com, Harbor Point Realty (demo), 100 Main Street, Huntington, NY 11743.',
      { useInnerText: true },
    );
  });

  test('the breadcrumb and the chart caption of a town page', async ({ page }) => {
    await page.goto('/long-island-real-estate/huntington');
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toHaveText(
      'Home › Suffolk County › Huntington',
      {
        useInnerText: true,
      },
    );
    await expect(page.locator('.price-chart figcaption')).toContainText(
      /\. Zillow Home Value Index, [A-Z][a-z]{2} \d{4} to [A-Z][a-z]{2} \d{4}\. /,
      { useInnerText: true },
    );
  });
});

test('a sale with one bathroom says "1 bath"', async ({ page, request }) => {
  const { sold_homes: homes } = z
    .object({
      sold_homes: z.array(z.object({ address: z.string(), beds: z.number().nullable(), baths: z.number().nullable() })),
    })
    .parse(await (await request.get('/api/towns/huntington/sold')).json());
  const shown = homes.slice(0, 3);
  const oneBath = shown.find((home) => home.baths === 1);
  if (!oneBath) throw new Error('the e2e data set has a one-bath sale among Huntington’s newest three');
  await page.goto('/long-island-real-estate/huntington');
  const card = page
    .getByRole('region', { name: 'Recently sold in Huntington' })
    .getByRole('listitem')
    .filter({ hasText: oneBath.address });
  await expect(card).toContainText(`${oneBath.beds} beds · 1 bath · `);
  await expect(card).not.toContainText('1 baths');
});

test('the price chart has its axis: the top and bottom values and the twelve months', async ({ page, request }) => {
  const { data } = z
    .object({ data: z.object({ zhvi_range: z.array(z.object({ dataValue: z.number() })) }) })
    .parse(await (await request.get('/api/zillow/market?town=Huntington')).json());
  const values = data.zhvi_range.slice(-12).map((point) => point.dataValue);
  const [min, max] = [Math.min(...values), Math.max(...values)];
  expect(min).toBeLessThan(max);

  await page.goto('/long-island-real-estate/huntington');
  const chart = page.getByRole('region', { name: '12-month home value trend' });
  await expect(chart.locator('.axis-max')).toHaveText(formatPriceShort(max));
  await expect(chart.locator('.axis-min')).toHaveText(formatPriceShort(min));
  await expect(chart.locator('.axis-min')).toBeVisible();
  // Level with the lines they label: the top of the plot and the top of the lowest bar.
  const lowest = await chart.locator('.bar').nth(values.indexOf(min)).boundingBox();
  const minLabel = await chart.locator('.axis-min').boundingBox();
  if (!lowest || !minLabel) throw new Error('the chart is not laid out');
  expect(Math.abs(minLabel.y + minLabel.height / 2 - lowest.y)).toBeLessThan(4);
  await expect(chart.locator('.chart-months li')).toHaveCount(12);
  // The words say it too, for screen readers and for anyone who misreads the bars.
  await expect(chart.locator('figcaption')).toContainText(
    `The bars start at ${formatPrice(min)} (the lowest month), not at $0; the top line is ${formatPrice(max)}.`,
  );
});

test.describe('the shipped sample market data', () => {
  test('a town with sample data says so next to the chart and the market box', async ({ page }) => {
    await page.goto('/long-island-real-estate/garden-city');
    const chart = page.getByRole('region', { name: '12-month home value trend' });
    await expect(chart.getByText(SAMPLE_NOTICE)).toBeVisible();
    await expect(chart.locator('.bar')).toHaveCount(12);
    await expect(page.getByRole('region', { name: 'Market Data' }).getByText(SAMPLE_NOTICE)).toBeVisible();
  });

  test('a town the real import covered shows no sample label, nor do towns without data', async ({ page }) => {
    await page.goto('/long-island-real-estate/huntington');
    await expect(page.getByRole('region', { name: '12-month home value trend' }).locator('.bar')).toHaveCount(12);
    await expect(page.getByText(SAMPLE_NOTICE)).toHaveCount(0);
    await page.goto('/long-island-real-estate/bay-shore');
    await expect(page.getByText(SAMPLE_NOTICE)).toHaveCount(0);
  });
});
