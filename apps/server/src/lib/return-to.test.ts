import { describe, expect, it } from 'vitest';
import { safeReturnTo } from './return-to';

describe('safeReturnTo', () => {
  it.each([
    ['/projects/overview?stage=concept', '/projects/overview?stage=concept'],
    ['/help#contact', '/help#contact'],
    ['/a/b/../c', '/a/c'],
    ['/search?q=%2F%2Fnot-a-host', '/search?q=%2F%2Fnot-a-host'],
  ])('keeps the same-origin path %s', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });

  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '/%5Cevil.example',
    '/%2F%2Fevil.example',
    '/%252F%252Fevil.example',
    'javascript:alert(1)',
    '/\r\nX: y',
    '/%0d%0aX:%20y',
    '/api/auth/logout',
    '/oidc/session/end',
    '',
    '%E0%A4%A',
    'x'.repeat(3000),
    // Dot segments normalise away: each of these would come out as `//evil.example`.
    '/.//evil.example',
    '/..//evil.example',
    '/a/..//evil.example',
    '/%2e//evil.example',
    '/%2E%2E//evil.example',
    '/%252e%252e//evil.example',
    '/a/%2e%2e/%2fevil.example',
    '/./%2F/evil.example',
    '/a/b/../..//evil.example?x=1',
  ])('falls back to / for %j', (input) => {
    expect(safeReturnTo(input)).toBe('/');
  });

  it('answers a fixed point: the answer, checked again, is the answer', () => {
    for (const input of ['/a/./b/../c?d=%2F#e', '/%2e/x', '/x/%2e%2e/y', '/./%2Fx']) {
      const answer = safeReturnTo(input);
      expect(safeReturnTo(answer)).toBe(answer);
      expect(answer.startsWith('//')).toBe(false);
    }
  });

  it('falls back to / for anything that is not a string', () => {
    expect(safeReturnTo(undefined)).toBe('/');
    expect(safeReturnTo(['/a'])).toBe('/');
  });
});
