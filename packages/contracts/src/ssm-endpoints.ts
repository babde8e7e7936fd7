import { endpoint } from './endpoint';
import { ssmParamsSchema, ssmSchema } from './ssm';

const ssmPath = '/api/devices/:deviceId/projects/:projectId/ssms/:ssmId';

/**
 * The SSM endpoints defined in the contracts (docs/decisions/endpoints-in-contracts.md). The older SSM paths are
 * still written in the server's route file and the web's `features/ssm/api.ts` (converted later, feature by feature).
 */
export const ssmEndpoints = {
  /**
   * A failed build (or rebuild) started again as the same model (same id and version), its configuration checked
   * again as at creation (docs/decisions/ssm-versions.md).
   */
  retry: endpoint({
    method: 'POST',
    path: `${ssmPath}/retry`,
    params: ssmParamsSchema,
    response: { 200: ssmSchema },
  }),
};
