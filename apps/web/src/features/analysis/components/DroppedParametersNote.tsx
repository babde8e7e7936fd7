import type { DroppedAnalysisParameter } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';

/**
 * Says which parameters the server took out of the analysis at its last save and why (a deleted trial's outcomes,
 * issue 17): the analysis was saved without them; the events already stored keep them.
 */
export function DroppedParametersNote({
  dropped,
  onClose,
}: {
  dropped: readonly DroppedAnalysisParameter[];
  onClose: () => void;
}) {
  if (dropped.length === 0) return null;
  return (
    <Alert severity="info" onClose={onClose} role="status">
      <AlertTitle>
        {dropped.length === 1 ? 'A parameter was taken out' : `${dropped.length} parameters were taken out`} of this
        analysis
      </AlertTitle>
      <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
        {dropped.map((d) => (
          <li key={d.parameter}>
            <strong>{d.label}</strong> ({d.parameter}): {d.reason}
            {d.removedFrom.length > 0 && ` Removed from ${d.removedFrom.join(', ')}.`}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
