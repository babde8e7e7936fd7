import type { MeasurementDefinitionView, MeasurementGeometryBody, MeasurementOrder } from '@insilico/contracts';
import {
  TAVI_MEASUREMENTS,
  TAVI_SET_KEY,
  TAVI_SET_VERSION,
  unitOf,
  type MeasurementDefinition,
  type MeasurementGeometry,
} from '@insilico/measure';
import type {
  MeasurementDefinitionRow,
  MeasurementOrderListRow,
  OrderedMeasurementRecord,
} from '../repositories/measurement.repository';

/** Measurement rows and built-in definitions as the API shows them, and as the job measures them. */

/** The built-in definitions with their ids (`scct-tavi/<key>@<version>`). */
export const BUILT_IN: readonly { id: string; lineageId: string; definition: MeasurementDefinition }[] =
  TAVI_MEASUREMENTS.map((definition) => ({
    id: `${TAVI_SET_KEY}/${definition.key}@${TAVI_SET_VERSION}`,
    lineageId: `${TAVI_SET_KEY}/${definition.key}`,
    definition,
  }));

export function recordOf(definitionId: string, version: number, d: MeasurementDefinition): OrderedMeasurementRecord {
  return {
    definitionId,
    version,
    name: d.name,
    unit: unitOf(d.geometry),
    phase: d.phase,
    geometry: d.geometry,
  };
}

export function definitionOfRecord(r: OrderedMeasurementRecord): MeasurementDefinition {
  return {
    key: r.definitionId,
    name: r.name,
    description: '',
    phase: r.phase,
    geometry: r.geometry as unknown as MeasurementGeometry,
  };
}

export function definitionOfRow(row: MeasurementDefinitionRow): MeasurementDefinition {
  return {
    key: row.id,
    name: row.name,
    description: row.description,
    phase: row.phase,
    geometry: row.geometry as unknown as MeasurementGeometry,
  };
}

export function builtInView(b: (typeof BUILT_IN)[number]): MeasurementDefinitionView {
  return {
    id: b.id,
    lineageId: b.lineageId,
    version: TAVI_SET_VERSION,
    builtIn: true,
    name: b.definition.name,
    description: b.definition.description,
    phase: b.definition.phase,
    unit: unitOf(b.definition.geometry),
    geometry: b.definition.geometry as MeasurementGeometryBody,
    createdAt: null,
  };
}

/** What the audit trail keeps of a definition version (issue 20). */
export function definitionState(row: MeasurementDefinitionRow) {
  const { version, name, description, phase, unit, geometry } = row;
  return { version, name, description, phase, unit, geometry };
}

export function rowView(row: MeasurementDefinitionRow): MeasurementDefinitionView {
  return {
    id: row.id,
    lineageId: row.lineageId,
    version: row.version,
    builtIn: false,
    name: row.name,
    description: row.description,
    phase: row.phase,
    unit: row.unit,
    geometry: row.geometry as unknown as MeasurementGeometryBody,
    createdAt: row.createdAt.toISOString(),
  };
}

export function summaryOf(row: MeasurementOrderListRow): Omit<MeasurementOrder, 'patients'> {
  const { order } = row;
  return {
    id: order.id,
    deviceId: order.deviceId,
    cohortId: order.cohortId,
    cohortName: row.cohortName,
    ssm: order.ssmId !== null && row.ssmProjectId !== null ? { id: order.ssmId, projectId: row.ssmProjectId } : null,
    status: order.status,
    progress: order.status === 'ready' ? 1 : (row.progress ?? 0),
    error: order.error,
    measurements: order.measurements.map((m) => ({
      definitionId: m.definitionId,
      version: m.version,
      name: m.name,
      unit: m.unit,
      phase: m.phase,
    })),
    createdAt: order.createdAt.toISOString(),
    createdBy: order.createdBy ? { id: order.createdBy, fullName: row.creatorName ?? '' } : null,
  };
}
