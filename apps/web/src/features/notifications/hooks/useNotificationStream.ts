import { useEffect, useEffectEvent } from 'react';
import {
  notificationSchema,
  notificationStreamEvents,
  unseenEventSchema,
  type Notification,
} from '@insilico/contracts';
import { notificationStreamUrl } from '../api';

interface StreamHandlers {
  onNotification: (notification: Notification) => void;
  onUnseen: (hasUnseen: boolean) => void;
}

function parseData(event: MessageEvent<unknown>): unknown {
  if (typeof event.data !== 'string') return undefined;
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Subscribes to the notification stream (Server-Sent Events) while mounted. Reconnecting after a
 * dropped connection is EventSource's own; malformed events are ignored.
 */
export function useNotificationStream({ onNotification, onUnseen }: StreamHandlers): void {
  const handleNotification = useEffectEvent((event: MessageEvent<unknown>) => {
    const parsed = notificationSchema.safeParse(parseData(event));
    if (parsed.success) onNotification(parsed.data);
  });
  const handleUnseen = useEffectEvent((event: MessageEvent<unknown>) => {
    const parsed = unseenEventSchema.safeParse(parseData(event));
    if (parsed.success) onUnseen(parsed.data.hasUnseen);
  });

  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(notificationStreamUrl);
    const notificationListener = (event: MessageEvent<unknown>) => handleNotification(event);
    const unseenListener = (event: MessageEvent<unknown>) => handleUnseen(event);
    source.addEventListener(notificationStreamEvents.notification, notificationListener);
    source.addEventListener(notificationStreamEvents.unseen, unseenListener);
    return () => {
      source.removeEventListener(notificationStreamEvents.notification, notificationListener);
      source.removeEventListener(notificationStreamEvents.unseen, unseenListener);
      source.close();
    };
  }, []);
}
