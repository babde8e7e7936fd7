import { useState } from 'react';
import { reasonRequiredMessage } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ReasonField } from '../../../components/ReasonField';

/** A change of the excluded set the user asked for, waiting for its reason. */
export interface ExclusionChange {
  kind: 'exclude' | 'include';
  ids: readonly string[];
}

interface ExclusionReasonDialogProps {
  change: ExclusionChange | null;
  /** Offered again: the reason given last on this page (one outlier after another often has the same). */
  lastReason: string;
  onConfirm: (reason: string) => void;
  onCancel: () => void;
}

function describe(change: ExclusionChange): { title: string; message: string; action: string } {
  const who = change.ids.length === 1 ? change.ids[0]! : `${change.ids.length} patients`;
  return change.kind === 'exclude'
    ? {
        title: `Exclude ${who}?`,
        message: `${who} will be left out of every statistic of this analysis. Say why.`,
        action: 'Exclude',
      }
    : {
        title: `Include ${who} again?`,
        message: `${who} will count in every statistic of this analysis again. Say why.`,
        action: 'Include',
      };
}

/**
 * Asks the reason for excluding or including patients (issue 20: which patients an analysis leaves out changes what it
 * says, so the server keeps a reason with each change of the excluded set). The analysis saves itself; the change is
 * made, recalculated and saved only once the reason is given. See docs/decisions/analysis-exclusion-reason.md.
 */
export function ExclusionReasonDialog({ change, lastReason, onConfirm, onCancel }: ExclusionReasonDialogProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Each new question starts from the last reason, without an old refusal (state adjusted while rendering).
  const [askedFor, setAskedFor] = useState<ExclusionChange | null>(null);
  if (change !== askedFor) {
    setAskedFor(change);
    if (change) {
      setReason(lastReason);
      setError(null);
    }
  }
  const text = change ? describe(change) : null;

  function confirm() {
    const trimmed = reason.trim();
    if (!trimmed) {
      setError(reasonRequiredMessage);
      return;
    }
    onConfirm(trimmed);
  }

  return (
    <ConfirmDialog
      open={change !== null}
      title={text?.title ?? ''}
      message={
        text ? (
          <>
            {text.message}
            <ReasonField value={reason} onChange={setReason} />
          </>
        ) : (
          ''
        )
      }
      confirmLabel={text?.action ?? ''}
      error={error}
      onConfirm={confirm}
      onCancel={onCancel}
    />
  );
}
