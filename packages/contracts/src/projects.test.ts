import { describe, expect, it } from 'vitest';
import { initialsOf, isAllowedMove, movesFrom, projectStatuses, refusedMoveMessage } from './projects';

describe('project status moves', () => {
  it('allows exactly the four moves of the decision table', () => {
    const allowed = projectStatuses.flatMap((from) =>
      projectStatuses.filter((to) => isAllowedMove(from, to)).map((to) => `${from}>${to}`),
    );
    expect(allowed).toEqual(['active>completed', 'active>abandoned', 'completed>active', 'abandoned>active']);
  });

  it('offers the card actions of spec §2 per status', () => {
    expect(movesFrom('active').map((move) => move.action)).toEqual(['Complete project', 'Abandon project']);
    expect(movesFrom('completed').map((move) => move.action)).toEqual(['Reactivate project']);
    expect(movesFrom('abandoned').map((move) => move.action)).toEqual(['Reactivate project']);
  });

  it('names the refused move', () => {
    expect(refusedMoveMessage('completed', 'abandoned')).toContain('from completed to abandoned');
    expect(refusedMoveMessage('active', 'active')).toBe('The project is already active.');
  });
});

describe('initialsOf', () => {
  it('takes the first letters of the first and last word', () => {
    expect(initialsOf('Ada King Lovelace')).toBe('AL');
    expect(initialsOf('  bea ')).toBe('B');
    expect(initialsOf('')).toBe('?');
  });
});
