import { createContext } from 'react';

/**
 * What the exports of one analysis start their file names with (its cohort and name, e.g. `HF50-annulus`); the
 * tables add what they hold and the date. Empty outside an analysis.
 */
export const ExportNameContext = createContext('');
