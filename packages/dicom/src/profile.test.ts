import { describe, expect, it } from 'vitest';
import { shiftDa, shiftDt } from './dates';
import { BASIC_PROFILE_TABLE } from './profile/basicProfileTable';
import { ruleFor } from './profile/profileRules';

describe('PS3.15 Table E.1-1 as data', () => {
  it('has each attribute once, with a valid action code, including the rows the profile is known by', () => {
    const tags = BASIC_PROFILE_TABLE.map((row) => row.tag);
    expect(new Set(tags).size).toBe(tags.length);
    expect(tags.length).toBeGreaterThan(600);
    const codes = new Set(['D', 'Z', 'X', 'K', 'C', 'U', 'Z/D', 'X/Z', 'X/D', 'X/Z/D', 'X/Z/U*']);
    for (const row of BASIC_PROFILE_TABLE) expect(codes.has(row.basic), row.name).toBe(true);
    const byTag = new Map(BASIC_PROFILE_TABLE.map((row) => [row.tag, row]));
    expect(byTag.get(0x00100010)?.basic).toBe('Z'); // Patient's Name
    expect(byTag.get(0x00100020)?.basic).toBe('Z/D'); // Patient ID
    expect(byTag.get(0x00100030)?.basic).toBe('Z'); // Patient's Birth Date
    expect(byTag.get(0x00080018)?.basic).toBe('U'); // SOP Instance UID
    expect(byTag.get(0x00080080)?.basic).toBe('X/Z/D'); // Institution Name
    expect(byTag.get(0x00081140)?.basic).toBe('X/Z/U*'); // Referenced Image Sequence
    expect(byTag.get(0x00080020)?.options?.modifiedDates).toBe('C'); // Study Date
  });

  it('resolves compound codes to the conformant choice and masks curves, overlays and private groups', () => {
    const plain = { modifiedDates: false };
    expect(ruleFor(0x00100020, 'LO', plain)?.action).toBe('D');
    expect(ruleFor(0x00080080, 'LO', plain)?.action).toBe('D');
    expect(ruleFor(0x00080082, 'SQ', plain)?.action).toBe('Z'); // a D on a sequence empties it
    expect(ruleFor(0x00081140, 'SQ', plain)?.action).toBe('S');
    expect(ruleFor(0x00080020, 'DA', plain)?.action).toBe('Z');
    expect(ruleFor(0x00080020, 'DA', { modifiedDates: true })?.action).toBe('C');
    expect(ruleFor(0x00100030, 'DA', { modifiedDates: true })?.action).toBe('Z'); // no option column for the birth date
    expect(ruleFor(0x00091001, 'LO', plain)?.name).toBe('Private attribute');
    expect(ruleFor(0x50020010, 'US', plain)?.action).toBe('X');
    expect(ruleFor(0x60023000, 'OW', plain)?.action).toBe('X');
    expect(ruleFor(0x60020010, 'US', plain)).toBeUndefined(); // overlay rows: not identifying
    expect(ruleFor(0x00280010, 'US', plain)).toBeUndefined();
  });
});

describe('date shifting', () => {
  it('shifts DA values, lists and ranges, and DT date parts; refuses what is not a date', () => {
    expect(shiftDa('20240301', -1)).toBe('20240229');
    expect(shiftDa('20240301\\20240302', -366)).toBe('20230301\\20230302');
    expect(shiftDa('20240101-20240131', 10)).toBe('20240111-20240210');
    expect(shiftDa('20240230', 1)).toBeUndefined();
    expect(shiftDa('2024', 1)).toBeUndefined();
    expect(shiftDt('20240301120000.5+0100', -1)).toBe('20240229120000.5+0100');
    expect(shiftDt('202403', -1)).toBeUndefined();
  });
});
