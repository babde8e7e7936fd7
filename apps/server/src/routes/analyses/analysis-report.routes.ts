import { analysisEndpoints } from '@insilico/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { route } from '../../http/route';
import { currentUser, type requireUser } from '../../policies/authentication';
import type { AnalysisReportService } from '../../services/analysis-report.service';

export interface AnalysisReportRoutesDeps {
  analysisReports: AnalysisReportService;
  authenticated: ReturnType<typeof requireUser>;
}

/** The population analysis report as PDF (issue 23): made on the server when asked, not stored. */
export async function analysisReportRoutes(app: FastifyInstance, deps: AnalysisReportRoutesDeps): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  route(
    api,
    analysisEndpoints.report,
    {
      preHandler: deps.authenticated,
      // The report may carry a reference population's CSV (a few MB, as for the comparison itself).
      bodyLimit: 6 * 1024 * 1024,
      schema: { tags: ['analyses'] },
    },
    async (request, reply) => {
      const { deviceId, projectId, analysisId } = request.params;
      const file = await deps.analysisReports.report(
        currentUser(request).id,
        deviceId,
        projectId,
        analysisId,
        request.body,
      );
      return reply
        .type('application/pdf')
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', `attachment; filename="${file.fileName}"`)
        .send(Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength));
    },
  );
}
