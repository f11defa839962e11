import * as z from 'zod';
import { formatPrice } from '../../src/ui/money.ts';
import { expect, test } from './fixtures.ts';

test.describe('a town page built after a market-data refresh', () => {
  test('shows the 12-month chart, the three most recent sales with their offices, and the market box', async ({
    page,
    request,
  }) => {
    await page.goto('/long-island-real-estate/huntington');
    const chart = page.getByRole('region', { name: '12-month home value trend' });
    await expect(chart.locator('.bar')).toHaveCount(12);
    await expect(chart.getByText(/Zillow Home Value Index, /)).toBeVisible();
    await expect(page.getByText('Live market data temporarily unavailable.')).toHaveCount(0);

    const sold = page.getByRole('region', { name: 'Recently sold in Huntington' }).getByRole('listitem');
    await expect(sold).toHaveCount(3);
    await expect(sold.first()).toContainText('Listing courtesy of');

    // The page shows what the API answers: the newest three sales and the typical value.
    const { sold_homes: homes } = z
      .object({ sold_homes: z.array(z.object({ address: z.string() })) })
      .parse(await (await request.get('/api/towns/huntington/sold')).json());
    expect(homes).toHaveLength(4);
    for (const [index, home] of homes.slice(0, 3).entries()) await expect(sold.nth(index)).toContainText(home.address);
    const { data } = z
      .object({ data: z.object({ typical_home_value: z.number() }) })
      .parse(await (await request.get('/api/zillow/market?town=Huntington')).json());
    const box = page.getByRole('region', { name: 'Market Data' });
    await expect(box).toContainText(formatPrice(data.typical_home_value));
    await expect(box).toContainText('Last updated');
  });

  test('a town without data keeps its empty states', async ({ page }) => {
    await page.goto('/long-island-real-estate/bay-shore');
    await expect(page.getByText('No recent sales data available for Bay Shore')).toBeVisible();
  });
});
