import type { MeasurementOrder } from '@insilico/contracts';
import { toCsv } from '@insilico/contracts/csv';

/**
 * An order's results as CSV: one row per patient; per measurement its value with the unit in the header
 * (e.g. `Aortic annulus area (mm²)`) — the corrected value where a user corrected the patient, else the automatic
 * one —, then the automatic values of corrected cells, the reasons of failed cells, and who corrected when.
 * CRLF line ends and the formula guard of `@insilico/contracts/csv`.
 */
export function measurementCsv(order: MeasurementOrder): string {
  const header = [
    'Patient',
    ...order.measurements.map((m) => `${m.name} (${m.unit})`),
    'Automatic values of corrected measurements',
    'Not measured (why)',
    'Corrected landmarks',
    'Corrected by',
    'Corrected at (UTC)',
  ];
  const rows = order.patients.map((p) => {
    const automatic = p.cells.flatMap((c, i) =>
      c.corrected !== null && c.automatic !== null ? [`${order.measurements[i]?.name}: ${c.automatic}`] : [],
    );
    const failures = p.cells.flatMap((c, i) => (c.failure ? [`${order.measurements[i]?.name}: ${c.failure}`] : []));
    return [
      p.patientId,
      ...p.cells.map((c) => c.value),
      automatic.join('; '),
      failures.join('; '),
      p.correction?.landmarks.join('; ') ?? '',
      p.correction?.by?.fullName ?? '',
      p.correction?.at ?? '',
    ];
  });
  return toCsv([header, ...rows]);
}
