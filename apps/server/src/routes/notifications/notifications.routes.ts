import { activityStreamEvent, notificationEndpoints as endpoints, notificationStreamEvents } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { NotificationEvent, NotificationService } from '../../services/notification.service';
import type { ActivityService } from '../../services/activity.service';

export interface NotificationRoutesDeps {
  notifications: NotificationService;
  authenticated: ReturnType<typeof requireUser>;
  /** Open event streams are ended when the server closes. */
  streams: Set<() => void>;
  /** With `?device=`, the stream also carries that workspace's activity feed (issue 20). */
  activity?: ActivityService;
}

const keepAliveMs = 25_000;

/** The signed-in user's notifications: list, mark seen, and a live Server-Sent Events stream. */
export async function notificationRoutes(app: FastifyInstance, deps: NotificationRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  const tags = ['notifications'];
  const pre = { preHandler: deps.authenticated, schema: { tags } };

  route(api, endpoints.list, pre, async (request) =>
    deps.notifications.list(currentUser(request).id, request.query.limit, request.query.before ?? null),
  );

  route(api, endpoints.markSeen, pre, async (request) =>
    deps.notifications.markSeen(currentUser(request).id, 'all' in request.body ? 'all' : request.body.ids),
  );

  route(
    api,
    endpoints.stream,
    { ...pre, schema: { tags, summary: 'Server-Sent Events: notification, unseen; activity with ?device=' } },
    async (request, reply) => {
      const userId = currentUser(request).id;
      const deviceId = request.query.device;
      // Refused (404/403) before the stream opens, like the feed itself.
      if (deviceId && deps.activity) await deps.activity.scope(userId, deviceId);
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      const send = (event: string, data: unknown) => out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      out.write('retry: 5000\n\n');
      // Subscribe before reading the unseen flag: a notification posted in between is then either
      // counted in the flag or delivered as an event, never lost.
      const unsubscribe = deps.notifications.subscribe(userId, (event: NotificationEvent) => {
        if (event.type === 'notification') send(notificationStreamEvents.notification, event.notification);
        send(notificationStreamEvents.unseen, { hasUnseen: event.hasUnseen });
      });
      const unsubscribeActivity =
        deviceId && deps.activity
          ? deps.activity.subscribe(userId, deviceId, (item) => send(activityStreamEvent, item))
          : () => {};
      send(notificationStreamEvents.unseen, { hasUnseen: await deps.notifications.hasUnseen(userId) });
      const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), keepAliveMs);
      const end = () => {
        clearInterval(keepAlive);
        unsubscribe();
        unsubscribeActivity();
        deps.streams.delete(end);
        if (!out.writableEnded) out.end();
      };
      deps.streams.add(end);
      request.raw.on('close', end);
    },
  );
}
