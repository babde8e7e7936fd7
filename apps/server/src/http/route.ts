import type { EndpointDefinition } from '@insilico/contracts';
import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

/** A Fastify instance (or scope) that validates and types with zod: `app.withTypeProvider<ZodTypeProvider>()`. */
export type ZodApi = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The route's schema as Fastify sees it: the endpoint's schemas, which type `request.params/query/body`. */
export interface EndpointSchema<E extends EndpointDefinition> {
  params: E['params'];
  querystring: E['query'];
  body: E['body'];
  response: E['response'];
}

/** What the OpenAPI document says of the route beyond its definition. */
export interface RouteDocs {
  tags?: string[];
  summary?: string;
  description?: string;
}

/** Fastify's full route options for an endpoint, typed by its schemas through the zod type provider. */
type EndpointRoute<E extends EndpointDefinition> = RouteOptions<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  EndpointSchema<E>,
  ZodTypeProvider
>;

/** Fastify's route options (hooks, limits, config) without what the endpoint's definition decides. */
export type EndpointRouteOptions<E extends EndpointDefinition> = Omit<
  EndpointRoute<E>,
  'method' | 'url' | 'schema' | 'handler'
> & { schema?: RouteDocs };

export type EndpointHandler<E extends EndpointDefinition> = EndpointRoute<E>['handler'];

/**
 * Registers an endpoint defined in `@insilico/contracts` (docs/decisions/endpoints-in-contracts.md): method, path and
 * schemas come from the definition, the hooks, limits and OpenAPI words from `options`; the handler's request is
 * typed from the definition's schemas as with `api.get(path, { schema }, handler)`.
 */
export function route<E extends EndpointDefinition>(
  api: ZodApi,
  endpoint: E,
  options: EndpointRouteOptions<E>,
  handler: EndpointHandler<E>,
): void {
  const { schema: docs, ...rest } = options;
  const schema: Record<string, unknown> = { ...docs };
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  if (endpoint.response) schema.response = endpoint.response;
  api.route<RouteGenericInterface, ContextConfigDefault, EndpointSchema<E>>({
    ...rest,
    method: endpoint.method,
    url: endpoint.path,
    schema: schema as unknown as EndpointSchema<E>,
    handler,
  });
}
