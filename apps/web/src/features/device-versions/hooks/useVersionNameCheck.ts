import { useEffect, useState } from 'react';
import { checkVersionName } from '../api';

export type NameCheck =
  | { state: 'idle' }
  | { state: 'checking' }
  | { state: 'available' }
  | { state: 'taken'; message: string }
  | { state: 'unknown' };

const debounceMs = 350;

/** Asks the server whether the typed name is free, a moment after typing stops (the spec §5 message if not). */
export function useVersionNameCheck(deviceId: string, name: string): NameCheck {
  // The answer names the text it is about: a newer text is "checking" until its own answer arrives.
  const [answer, setAnswer] = useState<{ name: string; check: NameCheck } | null>(null);
  const trimmed = name.trim();
  useEffect(() => {
    if (trimmed === '') return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      checkVersionName(deviceId, trimmed, controller.signal).then(
        (result) =>
          setAnswer({
            name: trimmed,
            check: result.available ? { state: 'available' } : { state: 'taken', message: result.message ?? '' },
          }),
        (error: unknown) => {
          // A failed check does not block: creating the version checks the name again.
          if (!(error instanceof DOMException && error.name === 'AbortError'))
            setAnswer({ name: trimmed, check: { state: 'unknown' } });
        },
      );
    }, debounceMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [deviceId, trimmed]);
  if (trimmed === '') return { state: 'idle' };
  return answer?.name === trimmed ? answer.check : { state: 'checking' };
}
