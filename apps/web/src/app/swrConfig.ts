import type { SWRConfiguration } from 'swr';

/** Spec §7 "Data fetching": a 60 s deduping interval and no refetch when the window regains focus. */
export const swrConfig = {
  dedupingInterval: 60_000,
  revalidateOnFocus: false,
} satisfies SWRConfiguration;
