import type { ImagingModels, ImagingPatient, PatientParameter } from '@insilico/contracts';

/**
 * The anatomy of an imaging patient as support staff delivered it (issue 19 item 7), read the way the product reads
 * a virtual patient's: organ and landmark names in the anatomy's spelling, volumes measured on the closed surfaces,
 * and what a simulation needs of it. Pure (no storage): imaging-patient.service.ts and the CPU tasks use it.
 */

/** A delivered landmark, its name in the anatomy's spelling (mm, the images' patient frame). */
export interface DeliveredLandmark {
  name: string;
  position: [number, number, number];
}

type DeliveredPatient = ImagingModels['patients'][number];

/** `Aortic-Root` (a file name allows no underscore) → `aortic_root`, as the anatomy names organs. */
export function deliveredOrganName(name: string): string {
  return name.trim().toLowerCase().replace(/-/g, '_');
}

/** `Aortic annulus`, `aortic-annulus` → `aortic_annulus`, as the anatomy names landmarks. */
export function deliveredLandmarkName(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

/** A delivered phase as the room and the mesh URL name it (`End-Systole` → `end-systole`). */
export function deliveredPhaseName(name: string): string {
  return name.trim().toLowerCase();
}

const organOrder = (a: string, b: string) => a.localeCompare(b);

/** End-diastolic or end-systolic, by the delivered phase's name (`end-diastole`, `diastole`, `ED`, …), or neither. */
export function cardiacPhaseOf(phase: string): 'diastole' | 'systole' | null {
  const p = phase.toLowerCase();
  if (p.includes('diastol') || p === 'ed') return 'diastole';
  if (p.includes('systol') || p === 'es') return 'systole';
  return null;
}

/** Organ labels of the parameter table (the anatomy's organs; others are spelled out from their names). */
function organLabel(organ: string): string {
  const known: Record<string, string> = {
    lv_blood_pool: 'LV blood pool',
    lv_myocardium: 'LV myocardium',
    rv_blood_pool: 'RV blood pool',
    la_blood_pool: 'LA blood pool',
    ra_blood_pool: 'RA blood pool',
  };
  return known[organ] ?? organ.charAt(0).toUpperCase() + organ.slice(1).replace(/_/g, ' ');
}

/**
 * What is measured on the delivered surfaces: each surface's enclosed volume (mL, by the divergence theorem at
 * delivery), and, where the LV blood pool was delivered at an end-diastolic and an end-systolic phase, the LV
 * end-diastolic and end-systolic volumes, stroke volume and ejection fraction. Nothing else is known of an imaging
 * patient (de-identification removed age, sex and size).
 */
export function measuredParameters(delivered: DeliveredPatient): PatientParameter[] {
  const parameters: PatientParameter[] = [];
  const models = [...delivered.models].sort(
    (a, b) => organOrder(deliveredOrganName(a.organ), deliveredOrganName(b.organ)) || a.phase.localeCompare(b.phase),
  );
  for (const model of models) {
    const organ = deliveredOrganName(model.organ);
    const phase = deliveredPhaseName(model.phase);
    parameters.push({
      key: `volume:${organ}:${phase}`,
      group: 'cardiac',
      label: `${organLabel(organ)} volume (${phase})`,
      unit: 'mL',
      decimals: 1,
      value: model.volume / 1000,
    });
  }
  const lv = (which: 'diastole' | 'systole') =>
    delivered.models.find(
      (m) => deliveredOrganName(m.organ) === 'lv_blood_pool' && cardiacPhaseOf(deliveredPhaseName(m.phase)) === which,
    );
  const ed = lv('diastole');
  const es = lv('systole');
  if (ed && es && ed.volume > 0) {
    const edv = ed.volume / 1000;
    const esv = es.volume / 1000;
    parameters.push(
      { key: 'lvEdv_mL', group: 'cardiac', label: 'LV end-diastolic volume', unit: 'mL', decimals: 1, value: edv },
      { key: 'lvEsv_mL', group: 'cardiac', label: 'LV end-systolic volume', unit: 'mL', decimals: 1, value: esv },
      { key: 'strokeVolume_mL', group: 'cardiac', label: 'Stroke volume', unit: 'mL', decimals: 1, value: edv - esv },
      {
        key: 'lvef_pct',
        group: 'cardiac',
        label: 'LV ejection fraction',
        unit: '%',
        decimals: 1,
        value: (100 * (edv - esv)) / edv,
      },
    );
  }
  return parameters;
}

/** One delivered patient of a dataset as the API shows it. */
export function toImagingPatient(
  dataset: { id: string; name: string; projectId: string },
  delivered: DeliveredPatient,
): ImagingPatient {
  const phases = [...new Set(delivered.models.map((m) => deliveredPhaseName(m.phase)))];
  const byCycle = (p: string) => ({ diastole: 0, systole: 1 })[cardiacPhaseOf(p) ?? 'diastole'] ?? 2;
  phases.sort((a, b) => byCycle(a) - byCycle(b) || a.localeCompare(b));
  return {
    id: delivered.patient,
    source: 'imaging',
    datasetId: dataset.id,
    datasetName: dataset.name,
    projectId: dataset.projectId,
    meshes: {
      phases,
      organs: [...new Set(delivered.models.map((m) => deliveredOrganName(m.organ)))].sort(organOrder),
    },
    models: delivered.models.map((m) => ({
      organ: deliveredOrganName(m.organ),
      phase: deliveredPhaseName(m.phase),
      triangles: m.triangles,
      volume_mm3: m.volume,
    })),
    landmarks: deliveredLandmarks(delivered),
    parameters: measuredParameters(delivered),
  };
}

export function deliveredLandmarks(delivered: DeliveredPatient): DeliveredLandmark[] {
  return delivered.landmarks.map((l) => ({ name: deliveredLandmarkName(l.name), position: [...l.position] }));
}
