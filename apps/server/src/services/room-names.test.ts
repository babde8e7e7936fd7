import { describe, expect, it } from 'vitest';
import { defaultRoomName } from './room-names';

describe('defaultRoomName', () => {
  it('names a room after its patient', () => {
    expect(defaultRoomName('SYN-000123', [])).toBe('SYN-000123 room');
  });

  it('numbers further rooms of the same patient, ignoring letter case', () => {
    expect(defaultRoomName('SYN-000123', ['syn-000123 ROOM'])).toBe('SYN-000123 room 2');
    expect(defaultRoomName('SYN-000123', ['SYN-000123 room', 'SYN-000123 room 2', 'SYN-000123 room 4'])).toBe(
      'SYN-000123 room 3',
    );
  });

  it('is not confused by other rooms that share the prefix', () => {
    expect(defaultRoomName('SYN-000123', ['SYN-000123 room with valve'])).toBe('SYN-000123 room');
  });
});
