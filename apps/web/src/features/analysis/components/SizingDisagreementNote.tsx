import type { CohortParameterTable } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { formatPercent } from '../format';
import type { FitCoverage } from '../worker/analysisProtocol';

/** How many patient ids a note lists before it says how many more. */
const listed = 12;

/**
 * The disagreement flag of each sizing whose sizes use several parameters (issue 23): the patients for whom, say,
 * annulus area-, perimeter- and diameter-based sizing pick different sizes (published CT studies: agreement in as
 * few as 30–62 % of patients). `patientOf` names an analysed row.
 */
export function SizingDisagreementNote({
  fits,
  table,
  patientOf,
}: {
  fits: readonly FitCoverage[];
  table: CohortParameterTable;
  patientOf: (row: number) => string;
}) {
  const notes = fits.flatMap((fit) => {
    const flag = fit.coverage?.disagreement;
    return flag ? [{ fit: fit.label, flag }] : [];
  });
  if (notes.length === 0) return null;
  return (
    <Stack spacing={1}>
      {notes.map(({ fit, flag }) => {
        const methods = flag.parameters.map((j) => table.parameters[j]?.label ?? '?').join(', ');
        const ids = flag.rows.slice(0, listed).map(patientOf);
        const more = flag.rows.length - ids.length;
        return (
          <Alert key={fit} severity={flag.count > 0 ? 'warning' : 'success'} role="status">
            {flag.count > 0
              ? `${fit}: sizing by ${methods} picks different sizes for ${flag.count} of ${flag.n} patients ` +
                `(${formatPercent(flag.fraction)}; 95 % CI ${formatPercent(flag.lower)}–${formatPercent(flag.upper)}): ` +
                `${ids.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`
              : `${fit}: sizing by ${methods} picks the same size for every patient it can size.`}
          </Alert>
        );
      })}
    </Stack>
  );
}
