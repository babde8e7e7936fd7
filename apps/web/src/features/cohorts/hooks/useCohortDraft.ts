import { useCallback, useState } from 'react';
import type { CohortCriteria } from '@insilico/anatomy';
import { parseSavedCriteria } from '../criteriaState';

/** The draft of an order between its two pages, per browser tab (session storage). */
export interface CohortDraft {
  criteria: CohortCriteria;
  name: string;
  description: string;
  size: number | null;
}

const storageKey = 'insilico.cohort-draft';

function load(): CohortDraft {
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null') as Partial<CohortDraft> | null;
    return {
      criteria: parseSavedCriteria(saved?.criteria ? JSON.stringify(saved.criteria) : null),
      name: typeof saved?.name === 'string' ? saved.name : '',
      description: typeof saved?.description === 'string' ? saved.description : '',
      size: typeof saved?.size === 'number' ? saved.size : null,
    };
  } catch {
    return { criteria: parseSavedCriteria(null), name: '', description: '', size: null };
  }
}

/** The draft and a setter that keeps the tab's copy current; `clear` after the order was placed. */
export function useCohortDraft() {
  const [draft, setDraft] = useState<CohortDraft>(load);
  const update = useCallback((change: Partial<CohortDraft>) => {
    setDraft((current) => {
      const next = { ...current, ...change };
      sessionStorage.setItem(storageKey, JSON.stringify(next));
      return next;
    });
  }, []);
  const clear = useCallback(() => {
    sessionStorage.removeItem(storageKey);
    setDraft({ criteria: parseSavedCriteria(null), name: '', description: '', size: null });
  }, []);
  return { draft, update, clear };
}
