import { describe, expect, it } from 'vitest';
import { initialsOf } from './initials';

describe('initialsOf', () => {
  it('takes the first and last word', () => {
    expect(initialsOf('Ada King Lovelace')).toBe('AL');
    expect(initialsOf('  grace   hopper ')).toBe('GH');
  });
  it('copes with one word or none', () => {
    expect(initialsOf('Plato')).toBe('P');
    expect(initialsOf('   ')).toBe('?');
  });
});
