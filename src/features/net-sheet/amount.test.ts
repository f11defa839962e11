import { describe, expect, it } from 'vitest';
import { estimateRequestSchema } from './public/estimate-request.ts';

const parse = (body: Record<string, unknown>) => estimateRequestSchema.safeParse({ agent_slug: 'a', ...body });
const message = (body: Record<string, unknown>) => {
  const result = parse(body);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('estimate request amounts', () => {
  it('accepts numbers and digit strings with commas, giving cents', () => {
    expect(parse({ sale_price: '780,200', mortgage_payoff: 450000 })).toMatchObject({
      success: true,
      data: { sale_price: 780_200_00, mortgage_payoff: 450_000_00 },
    });
    expect(parse({ sale_price: 780200.5, mortgage_payoff: '1,000.05' })).toMatchObject({
      data: { sale_price: 780_200_50, mortgage_payoff: 1_000_05 },
    });
  });

  it('treats a missing or empty payoff as $0', () => {
    expect(parse({ sale_price: 10_000 })).toMatchObject({ data: { mortgage_payoff: 0 } });
    expect(parse({ sale_price: 10_000, mortgage_payoff: '' })).toMatchObject({ data: { mortgage_payoff: 0 } });
  });

  it('explains what is wrong', () => {
    expect(message({})).toBe('Sale price is required');
    expect(message({ sale_price: '' })).toBe('Sale price is required');
    expect(message({ sale_price: 0 })).toBe('Sale price must be at least $10,000');
    expect(message({ sale_price: 1 })).toBe('Sale price must be at least $10,000');
    expect(message({ sale_price: '9,999.99' })).toBe('Sale price must be at least $10,000');
    expect(message({ sale_price: '100,000,000.01' })).toBe('Sale price must be at most $100,000,000');
    expect(message({ sale_price: 1e15 })).toBe('Sale price must be at most $100,000,000');
    expect(message({ sale_price: 'abc' })).toBe('Sale price must be a dollar amount, like 450,000');
    expect(message({ sale_price: 1.234 })).toBe('Sale price must be a dollar amount, like 450,000');
    expect(message({ sale_price: true })).toBe('Sale price must be a dollar amount, like 450,000');
    expect(message({ sale_price: 10_000, mortgage_payoff: -5 })).toBe('Mortgage payoff cannot be negative');
    expect(message({ sale_price: 10_000, mortgage_payoff: '-5' })).toBe('Mortgage payoff cannot be negative');
  });

  it('trims the recipient name and stores an empty one as null', () => {
    expect(parse({ sale_price: 10_000, recipient_name: '  Pat  ' })).toMatchObject({ data: { recipient_name: 'Pat' } });
    expect(parse({ sale_price: 10_000, recipient_name: '   ' })).toMatchObject({ data: { recipient_name: null } });
  });
});
