import { describe, expect, it } from 'vitest';
import { commentPlainText, commentSegments, mentionedUserIds, mentionToken } from '@insilico/contracts';
import { activeMention, insertMention, matchPeople, toCommentBody, toEditableText } from './mentionText';

const ada = { userId: '11111111-1111-4111-8111-111111111111', fullName: 'Ada Lovelace' };
const alan = { userId: '22222222-2222-4222-8222-222222222222', fullName: 'Alan Turing' };
const otherAda = { userId: '33333333-3333-4333-8333-333333333333', fullName: 'Ada Lovelace' };

describe('mention tokens (the wire format, packages/contracts)', () => {
  it('splits a body into text and mentions and lists each person once', () => {
    const body = `Hi ${mentionToken(ada)}, see ${mentionToken(alan)} and ${mentionToken(ada)}!`;
    expect(commentSegments(body)).toEqual([
      { type: 'text', text: 'Hi ' },
      { type: 'mention', userId: ada.userId, label: 'Ada Lovelace' },
      { type: 'text', text: ', see ' },
      { type: 'mention', userId: alan.userId, label: 'Alan Turing' },
      { type: 'text', text: ' and ' },
      { type: 'mention', userId: ada.userId, label: 'Ada Lovelace' },
      { type: 'text', text: '!' },
    ]);
    expect(mentionedUserIds(body)).toEqual([ada.userId, alan.userId]);
    expect(commentPlainText(body)).toBe('Hi @Ada Lovelace, see @Alan Turing and @Ada Lovelace!');
  });

  it('leaves text that only looks like a token as text', () => {
    for (const body of [
      '@[Ada](not-a-uuid)',
      '@[](11111111-1111-4111-8111-111111111111)',
      'mail@[x](y)',
      '@[A\nB](' + ada.userId + ')',
    ])
      expect(mentionedUserIds(body)).toEqual([]);
    expect(commentSegments('plain')).toEqual([{ type: 'text', text: 'plain' }]);
  });

  it('keeps a token well-formed whatever the name holds', () => {
    const token = mentionToken({ userId: ada.userId, fullName: 'Ada [QA]\nLovelace' });
    expect(token).toBe(`@[Ada QA Lovelace](${ada.userId})`);
    expect(mentionedUserIds(token)).toEqual([ada.userId]);
  });
});

describe('the composer text', () => {
  it('finds the @query being typed at the caret', () => {
    expect(activeMention('Hello @Ad', 9)).toEqual({ start: 6, query: 'Ad' });
    expect(activeMention('@', 1)).toEqual({ start: 0, query: '' });
    expect(activeMention('(@Ada Lo', 8)).toEqual({ start: 1, query: 'Ada Lo' });
    expect(activeMention('mail@example', 12)).toBeNull();
    expect(activeMention('@Ada\nnext', 9)).toBeNull();
    expect(activeMention('@Ada  two spaces', 16)).toBeNull();
    expect(activeMention('@ space first', 3)).toBeNull();
    expect(activeMention('no at sign', 5)).toBeNull();
  });

  it('offers names starting with the query first, then names and e-mails containing it', () => {
    const people = [
      { ...alan, email: 'alan@example.com' },
      { ...ada, email: 'ada@example.com' },
      { userId: 'x', fullName: 'Grace Hopper', email: 'grace@navy.example' },
      { userId: 'y', fullName: 'Nadia Alan', email: 'n@example.com' },
    ];
    expect(matchPeople(people, 'al').map((p) => p.fullName)).toEqual(['Alan Turing', 'Nadia Alan']);
    expect(matchPeople(people, 'NAVY').map((p) => p.fullName)).toEqual(['Grace Hopper']);
    expect(matchPeople(people, '').map((p) => p.fullName)).toEqual([
      'Ada Lovelace',
      'Alan Turing',
      'Grace Hopper',
      'Nadia Alan',
    ]);
    expect(matchPeople(people, 'zzz')).toEqual([]);
  });

  it('inserts the chosen name and sends it as a token; a name edited by hand is plain text', () => {
    const typed = 'Please check @Ad';
    const placed = insertMention(typed, activeMention(typed, typed.length)!, typed.length, ada, []);
    expect(placed.text).toBe('Please check @Ada Lovelace ');
    expect(placed.caret).toBe(placed.text.length);
    expect(toCommentBody(`${placed.text}today`, placed.mentions)).toBe(`Please check ${mentionToken(ada)} today`);
    expect(toCommentBody('Please check @Ada Lovelac today', placed.mentions)).toBe('Please check @Ada Lovelac today');
    expect(toCommentBody('x@Ada Lovelace', placed.mentions)).toBe('x@Ada Lovelace');
    expect(toCommentBody('@Ada Lovelaces', placed.mentions)).toBe('@Ada Lovelaces');
  });

  it('tells two people with one name apart', () => {
    const first = insertMention('@', { start: 0, query: '' }, 1, ada, []);
    const text = `${first.text}and @`;
    const second = insertMention(text, { start: text.length - 1, query: '' }, text.length, otherAda, first.mentions);
    expect(second.text).toBe('@Ada Lovelace and @Ada Lovelace 2 ');
    expect(toCommentBody(second.text.trim(), second.mentions)).toBe(
      `${mentionToken(ada)} and @[Ada Lovelace 2](${otherAda.userId})`,
    );
  });

  it('turns a saved body back into editable text with current names, and back into the same tokens', () => {
    const body = `${mentionToken({ userId: ada.userId, fullName: 'Ada Byron' })} thanks`;
    const editable = toEditableText(body, new Map([[ada.userId, 'Ada Lovelace']]));
    expect(editable.text).toBe('@Ada Lovelace thanks');
    expect(toCommentBody(editable.text, editable.mentions)).toBe(`${mentionToken(ada)} thanks`);
  });
});
