import { describe, expect, it } from 'vitest';
import { seriesColor, seriesPalette } from './palette';

describe('series colours (spec §9)', () => {
  it('has a 25-colour palette used by index', () => {
    expect(seriesPalette).toHaveLength(25);
    expect(new Set(seriesPalette).size).toBe(25);
    expect(seriesColor(0)).toBe(seriesPalette[0]);
    expect(seriesColor(24)).toBe(seriesPalette[24]);
  });

  it('generates gradient shades beyond the palette', () => {
    expect(seriesColor(25)).toBe('#4c92c3'); // #1f77b4 20 % towards white
    expect(seriesColor(50)).toBe('#195f90'); // 20 % towards black
    const many = Array.from({ length: 200 }, (_, i) => seriesColor(i));
    expect(new Set(many).size).toBe(200);
    for (const colour of many) expect(colour).toMatch(/^#[0-9a-f]{6}$/);
  });
});
