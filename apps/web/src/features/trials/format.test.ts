import { describe, expect, it } from 'vitest';
import { countsText, etaText, outcomeText } from './format';

describe('trial formatting', () => {
  it('words the ETA', () => {
    expect(etaText(null)).toBeNull();
    expect(etaText(0.2)).toBe('about 1 s left');
    expect(etaText(42)).toBe('about 42 s left');
    expect(etaText(185)).toBe('about 3 min left');
    expect(etaText(5400)).toBe('about 1.5 h left');
  });

  it('shows outcomes to three significant digits and a dash for none', () => {
    expect(outcomeText(null)).toBe('—');
    expect(outcomeText(12.3456)).toBe('12.3');
    expect(outcomeText(0.0012345)).toBe('0.00123');
    expect(outcomeText(123456.7)).toBe('123457');
  });

  it('counts only what there is', () => {
    const counts = { total: 5, done: 2, running: 1, queued: 1, failed: 1, cancelled: 0 };
    expect(countsText({ counts })).toBe('2 of 5 patients done · 1 running · 1 queued · 1 failed');
  });
});
