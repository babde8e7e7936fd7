import { commentSegments, mentionLabel, mentionToken } from '@insilico/contracts';

/**
 * The composer's text: what the person sees is `@Ada Lovelace`; what is sent is the token `@[Ada Lovelace](id)`
 * (docs/decisions/project-comments.md). The composer remembers which names it inserted for whom; a name edited
 * by hand stops being a mention and stays plain text.
 */

/** A mention the composer inserted: the name as shown and the person it stands for. */
export interface MentionRef {
  userId: string;
  label: string;
}

export interface Person {
  userId: string;
  fullName: string;
}

/** The `@query` being typed at the caret, if any: where its `@` is and what follows it. */
export interface ActiveMention {
  start: number;
  query: string;
}

const maxQueryLength = 40;

/**
 * The mention being typed: an `@` at the start or after whitespace or an opening bracket, followed up to the caret by
 * at most 40 characters without a line break and without two spaces in a row (names have single spaces).
 */
export function activeMention(text: string, caret: number): ActiveMention | null {
  const before = text.slice(0, caret);
  const at = before.lastIndexOf('@');
  if (at === -1) return null;
  if (at > 0 && !/[\s([{"']/.test(before[at - 1]!)) return null;
  const query = before.slice(at + 1);
  if (query.length > maxQueryLength || /\n|\s\s|^\s/.test(query)) return null;
  return { start: at, query };
}

/** Team members whose name or e-mail contains the query (case-insensitive), names starting with it first. */
export function matchPeople<T extends Person & { email?: string }>(
  people: readonly T[],
  query: string,
  limit = 8,
): T[] {
  const needle = query.trim().toLowerCase();
  const scored = people.flatMap((person) => {
    const name = person.fullName.toLowerCase();
    if (needle === '') return [{ person, rank: 1 }];
    if (name.startsWith(needle)) return [{ person, rank: 0 }];
    if (name.includes(needle) || person.email?.toLowerCase().includes(needle)) return [{ person, rank: 1 }];
    return [];
  });
  return scored
    .sort((a, b) => a.rank - b.rank || a.person.fullName.localeCompare(b.person.fullName))
    .slice(0, limit)
    .map(({ person }) => person);
}

/**
 * Replaces the `@query` being typed with the person's name and a space; answers the new text, the caret after it,
 * and the mentions known so far. Two people with one name are told apart by a number after the second one.
 */
export function insertMention(
  text: string,
  active: ActiveMention,
  caret: number,
  person: Person,
  mentions: readonly MentionRef[],
): { text: string; caret: number; mentions: MentionRef[] } {
  const label = labelFor(person, mentions);
  const inserted = `@${label} `;
  const next = text.slice(0, active.start) + inserted + text.slice(caret);
  const known = mentions.some((mention) => mention.userId === person.userId && mention.label === label);
  return {
    text: next,
    caret: active.start + inserted.length,
    mentions: known ? [...mentions] : [...mentions, { userId: person.userId, label }],
  };
}

function labelFor(person: Person, mentions: readonly MentionRef[]): string {
  const base = mentionLabel(person.fullName);
  const own = mentions.find((mention) => mention.userId === person.userId);
  if (own) return own.label;
  let label = base;
  for (let n = 2; mentions.some((mention) => mention.label === label); n += 1) label = `${base} ${n}`;
  return label;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The body to send: every `@Name` the composer inserted (still intact) becomes its token. */
export function toCommentBody(text: string, mentions: readonly MentionRef[]): string {
  if (mentions.length === 0) return text;
  // Longest names first, so "@Ada Lovelace 2" is not taken for "@Ada Lovelace" followed by " 2".
  const ordered = [...mentions].sort((a, b) => b.label.length - a.label.length);
  const byLabel = new Map(ordered.map((mention) => [mention.label, mention]));
  const pattern = new RegExp(
    `@(${ordered.map((mention) => escapeRegExp(mention.label)).join('|')})(?![\\p{L}\\p{N}_])`,
    'gu',
  );
  return text.replace(pattern, (whole: string, label: string, offset: number) => {
    const previous = offset > 0 ? text[offset - 1]! : ' ';
    const mention = byLabel.get(label);
    if (!mention || /[\p{L}\p{N}_@]/u.test(previous)) return whole;
    return mentionToken({ userId: mention.userId, fullName: mention.label });
  });
}

/** A saved body as the composer shows it for editing: tokens become `@Name` (current names where known). */
export function toEditableText(
  body: string,
  currentNames: ReadonlyMap<string, string>,
): { text: string; mentions: MentionRef[] } {
  let mentions: MentionRef[] = [];
  let text = '';
  for (const segment of commentSegments(body)) {
    if (segment.type === 'text') {
      text += segment.text;
      continue;
    }
    const person = { userId: segment.userId, fullName: currentNames.get(segment.userId) ?? segment.label };
    const placed = insertMention(text, { start: text.length, query: '' }, text.length, person, mentions);
    // insertMention adds a space after the name; the saved text already has what followed.
    text = placed.text.slice(0, -1);
    mentions = placed.mentions;
  }
  return { text, mentions };
}
