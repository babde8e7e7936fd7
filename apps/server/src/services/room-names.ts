/**
 * The default name of a new room on a patient: `<patient> room`, or `<patient> room 2`, `… 3` when the project
 * already has rooms of that name (names are unique per project regardless of letter case).
 */
export function defaultRoomName(patientId: string, takenNames: readonly string[]): string {
  const base = `${patientId} room`;
  const taken = new Set(takenNames.map((name) => name.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let number = 2; ; number += 1) {
    const candidate = `${base} ${number}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}
