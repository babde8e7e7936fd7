import { useState } from 'react';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { DesignHistoryPage } from './DesignHistoryPage';

/**
 * `/design-history` as the router shows it: the page, and the Stay/Leave question when leaving it while a new entry
 * holds input (spec §4 "Leaving a page"). Filters change the address within the page and keep the form: no question.
 */
export function DesignHistoryRoute() {
  const [unsaved, setUnsaved] = useState(false);
  const leave = useLeaveConfirmation(unsaved, { within: '/design-history' });
  return (
    <>
      <DesignHistoryPage onUnsavedChange={setUnsaved} />
      {leave.dialog}
    </>
  );
}
