import type { Health } from '@insilico/contracts';
import type { MaintenanceService } from './maintenance.service';

/** Liveness of the parts a request needs. `ping` is the database round trip. */
export class HealthService {
  constructor(
    private readonly ping: () => Promise<void>,
    private readonly maintenance: MaintenanceService,
    private readonly version: string,
  ) {}

  async check(): Promise<Health> {
    try {
      await this.ping();
      const state = await this.maintenance.current();
      return { status: 'ok', database: 'ok', maintenance: state.maintenance_mode, version: this.version };
    } catch {
      return { status: 'unavailable', database: 'unavailable', maintenance: false, version: this.version };
    }
  }
}
