import { describe, expect, it } from 'vitest';
import { passwordProblems } from './password-policy';

describe('password rule (spec §5)', () => {
  it('accepts 8+ characters with 3 of the 4 character types', () => {
    expect(passwordProblems('Zq8#vLp2')).toEqual([]);
    expect(passwordProblems('valve-sizing-2026')).toEqual([]);
    expect(passwordProblems('VALVE SIZING 2026')).toEqual([]);
  });

  it('refuses fewer than 8 characters, saying how many there are', () => {
    expect(passwordProblems('Ab1!xyz')).toEqual(['Use at least 8 characters (this one has 7).']);
  });

  it('counts characters as a person does: an emoji is one character, not two', () => {
    // 6 characters, 9 UTF-16 units.
    expect(passwordProblems('Zq8🫀🫀🫀')).toEqual(['Use at least 8 characters (this one has 6).']);
    expect(passwordProblems('Zq8🫀🫀🫀🫀🫀')).toEqual([]);
  });

  it('refuses fewer than 3 character types and names the missing ones', () => {
    const [problem] = passwordProblems('qwzrtplkmn');
    expect(problem).toBe(
      'Use at least 3 of these 4 kinds of characters: lower-case letters, upper-case letters, digits, special characters. Add two of: upper-case letters (A-Z), digits (0-9), special characters (such as ! ? # or a space).',
    );
    expect(passwordProblems('qwzrtpLKMN')[0]).toContain('Add one of: digits (0-9), special characters');
  });

  it('refuses very common passwords, also with a trailing symbol', () => {
    const common = 'This password is one of the most commonly used and easy to guess. Choose another.';
    expect(passwordProblems('Password1')).toEqual([common]);
    expect(passwordProblems('Qwerty123!')).toEqual([common]);
  });

  it('refuses the e-mail name inside the password', () => {
    expect(passwordProblems('Jane.doe-2026', { email: 'jane.doe@example.com' })).toEqual([
      'Do not use your e-mail address in your password.',
    ]);
  });
});
