import { useEffect } from 'react';
import type { AnalyticsEventPropertiesOf, AnalyticsEventType } from '@insilico/contracts/analytics';
import { track } from '../../lib/analytics';

/** Records an event once per set of ids while the component is shown (e.g. 'room opened'); none while ids are missing. */
export function useTrackOnce<T extends AnalyticsEventType>(
  type: T,
  /** Ids not known yet (null or undefined) wait: nothing is recorded until all are there. */
  properties: { [Key in keyof AnalyticsEventPropertiesOf<T>]: AnalyticsEventPropertiesOf<T>[Key] | null | undefined },
): void {
  const key = Object.values(properties).every(Boolean) ? JSON.stringify(properties) : null;
  useEffect(() => {
    if (key) track(type, JSON.parse(key) as AnalyticsEventPropertiesOf<T>);
  }, [type, key]);
}
