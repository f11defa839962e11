import { describe, expect, it } from 'vitest';
import { logoHeight, logoSource } from './logo.ts';

describe('logo', () => {
  it('is 32 px times the scale, clamped to 24-48', () => {
    expect(logoHeight(1)).toBe(32);
    expect(logoHeight(1.2)).toBe(38);
    expect(logoHeight(0.5)).toBe(24);
    expect(logoHeight(2)).toBe(48);
  });

  it('turns bare base64 into a data URL of its type', () => {
    expect(logoSource('iVBORw0', 'png')).toBe('data:image/png;base64,iVBORw0');
    expect(logoSource('data:image/webp;base64,UklG', 'png')).toBe('data:image/webp;base64,UklG');
    expect(logoSource('/logo.svg', 'svg')).toBe('/logo.svg');
  });
});
