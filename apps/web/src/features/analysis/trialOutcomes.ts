/** The trial outcome columns of the page's table (shared with the server's analysis report, in contracts). */
export { keysInUse, rowsWithoutValues, withTrialOutcomes } from '@insilico/contracts';
