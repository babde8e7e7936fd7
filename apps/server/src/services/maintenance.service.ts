import type { SettingsRepository } from '../repositories/settings.repository';

export interface MaintenanceState {
  maintenance_mode: boolean;
  maintenance_text: string;
}

const key = 'maintenance';
const off: MaintenanceState = { maintenance_mode: false, maintenance_text: '' };

/**
 * Maintenance mode (spec §3 "Maintenance"), stored in the database so every server and the
 * operator command agree. Reads are cached for a moment: it is checked on every request.
 */
export class MaintenanceService {
  private cached: { state: MaintenanceState; at: number } | null = null;

  constructor(
    private readonly settings: SettingsRepository,
    private readonly cacheMs: number,
  ) {}

  async current(): Promise<MaintenanceState> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < this.cacheMs) return this.cached.state;
    const state = (await this.settings.get<MaintenanceState>(key)) ?? off;
    this.cached = { state, at: now };
    return state;
  }

  async switchOn(text: string): Promise<MaintenanceState> {
    const trimmed = text.trim();
    const state = { maintenance_mode: true, maintenance_text: trimmed === '' ? defaultText : trimmed };
    await this.settings.set(key, state);
    this.cached = null;
    return state;
  }

  async switchOff(): Promise<MaintenanceState> {
    await this.settings.set(key, off);
    this.cached = null;
    return off;
  }
}

export const defaultText = 'The workspace is down for maintenance. Please come back in a little while.';
