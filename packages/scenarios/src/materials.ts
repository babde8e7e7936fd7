/**
 * Device materials offered by the set-up (issue 16 item 1: "the device's material from a small library with sources,
 * or custom values"). Linear elastic constants at body temperature; the engine's solids are St Venant–Kirchhoff or
 * neo-Hookean, so superelasticity (nitinol's plateau) is not modelled: its austenite modulus is used.
 */
export interface DeviceMaterial {
  readonly id: MaterialId;
  readonly name: string;
  /** Young's modulus, Pa. */
  readonly youngsModulus: number;
  readonly poissonRatio: number;
  /** Density, kg/m³. */
  readonly density: number;
  /** Where the figures come from. */
  readonly source: string;
}

export const MATERIAL_IDS = ['nitinol', 'stainless_316l', 'cobalt_chromium_l605'] as const;
export type MaterialId = (typeof MATERIAL_IDS)[number];

export const MATERIALS: readonly DeviceMaterial[] = [
  {
    id: 'nitinol',
    name: 'Nitinol (austenite)',
    youngsModulus: 75e9,
    poissonRatio: 0.33,
    density: 6450,
    source:
      'Duerig, Pelton & Stöckel, An overview of nitinol medical applications, Mater. Sci. Eng. A 273–275 (1999) 149–160; ASTM F2063',
  },
  {
    id: 'stainless_316l',
    name: 'Stainless steel 316L',
    youngsModulus: 193e9,
    poissonRatio: 0.3,
    density: 8000,
    source: 'Poncin & Proft, Stent tubing: understanding the desired attributes, SMST 2003, 253–259; ASTM F138',
  },
  {
    id: 'cobalt_chromium_l605',
    name: 'Cobalt-chromium L605',
    youngsModulus: 243e9,
    poissonRatio: 0.3,
    density: 9130,
    source: 'Poncin & Proft, Stent tubing: understanding the desired attributes, SMST 2003, 253–259; ASTM F90',
  },
];

/** The library entry `id`. */
export function materialOf(id: MaterialId): DeviceMaterial {
  const found = MATERIALS.find((m) => m.id === id);
  if (!found) throw new RangeError(`unknown material ${id}`);
  return found;
}
