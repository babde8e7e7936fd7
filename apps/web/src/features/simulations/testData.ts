import type { Simulation, SimulationSetup } from '@insilico/contracts';

// Answers of the simulation API for the feature's tests.

const estimate = (resolution: 'coarse' | 'standard' | 'fine', particles: number, seconds: number) => ({
  resolution,
  dp_mm: 1,
  particles,
  endTime_s: 0.857,
  steps: 1000,
  seconds,
});

export function fluidSetup(over: Partial<SimulationSetup> = {}): SimulationSetup {
  return {
    kind: 'fluid',
    phase: 'end-diastole',
    parameters: {
      heartRate_bpm: 70,
      strokeVolume_mL: 72.5,
      cycles: 1,
      bloodDensity_kg_m3: 1060,
      bloodViscosity_mPa_s: 3.5,
      outletPressure_mmHg: 0,
      shearThinning: false,
    },
    fields: [
      { key: 'heartRate_bpm', label: 'Heart rate', unit: 'bpm', min: 30, max: 200, integer: false },
      { key: 'strokeVolume_mL', label: 'Stroke volume', unit: 'mL', min: 10, max: 200, integer: false },
      { key: 'cycles', label: 'Heart cycles', unit: '', min: 0.01, max: 5, integer: false },
    ],
    materials: [],
    device: { versionId: 'v-1', name: 'Ring valve' },
    estimates: [estimate('coarse', 11208, 43), estimate('standard', 35437, 217), estimate('fine', 99963, 918)],
    planes: {
      inlet: { centre: [0, 0, -5], normal: [0, 0, 1], radius: 14 },
      outlet: { centre: [0, 0, 50], normal: [0, 0, 1], radius: 17 },
    },
    problems: [],
    problemsAdjustable: false,
    helpMessage: 'Please reach out to us and we will help you set up your simulation.',
    canRun: true,
    particleCap: 400000,
    testResolution: false,
    ...over,
  };
}

export function solidSetup(): SimulationSetup {
  return {
    ...fluidSetup(),
    kind: 'solid',
    parameters: {
      material: 'nitinol',
      youngsModulus_GPa: 75,
      poissonRatio: 0.33,
      materialDensity_kg_m3: 6450,
      loadPressure_mmHg: 10,
      simulatedTime_ms: 2,
    },
    fields: [
      { key: 'youngsModulus_GPa', label: "Young's modulus", unit: 'GPa', min: 0.001, max: 500, integer: false },
      { key: 'poissonRatio', label: "Poisson's ratio", unit: '', min: 0, max: 0.49, integer: false },
      { key: 'materialDensity_kg_m3', label: 'Material density', unit: 'kg/m³', min: 500, max: 25000, integer: false },
      { key: 'loadPressure_mmHg', label: 'Pressure load', unit: 'mmHg', min: 0, max: 300, integer: false },
    ],
    materials: [
      {
        id: 'nitinol',
        name: 'Nitinol (austenite)',
        youngsModulus_GPa: 75,
        poissonRatio: 0.33,
        density_kg_m3: 6450,
        source: 'ASTM F2063',
      },
      {
        id: 'stainless_316l',
        name: 'Stainless steel 316L',
        youngsModulus_GPa: 193,
        poissonRatio: 0.3,
        density_kg_m3: 8000,
        source: 'ASTM F138',
      },
    ],
    planes: null,
  };
}

export function simulation(over: Partial<Simulation> = {}): Simulation {
  return {
    id: 's-1',
    projectId: 'p-1',
    roomId: 'r-1',
    roomName: 'Valve room',
    name: 'Fluid 1',
    kind: 'fluid',
    resolution: 'coarse',
    phase: 'end-diastole',
    status: 'completed',
    progress: 1,
    simulatedTime: 0.857,
    endTime: 0.857,
    etaSeconds: null,
    error: null,
    deviceVersion: { id: 'v-1', name: 'Ring valve' },
    parameters: {},
    estimate: { resolution: 'coarse', dp_mm: 2, particles: 11208, endTime_s: 0.857, steps: 3825, seconds: 43 },
    scenarioVersion: 'scenarios-1',
    createdBy: { id: 'u-1', name: 'Ada Lovelace' },
    createdAt: '2026-11-20T09:30:00.000Z',
    finishedAt: null,
    ...over,
  };
}
