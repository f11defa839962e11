import { describe, expect, it } from 'vitest';
import { logoHeight, logoSource } from './logo.ts';

describe('logo', () => {
  it('is 80 px times the scale, clamped to 40-120', () => {
    expect(logoHeight(1)).toBe(80);
    expect(logoHeight(1.2)).toBe(96);
    expect(logoHeight(0.4)).toBe(40);
    expect(logoHeight(0.5)).toBe(40);
    expect(logoHeight(1.5)).toBe(120);
    expect(logoHeight(2)).toBe(120);
  });

  it('turns bare base64 into a data URL of its type', () => {
    expect(logoSource('iVBORw0', 'png')).toBe('data:image/png;base64,iVBORw0');
    expect(logoSource('data:image/webp;base64,UklG', 'png')).toBe('data:image/webp;base64,UklG');
    expect(logoSource('/logo.svg', 'svg')).toBe('/logo.svg');
  });
});
