import type { LandmarkName } from '@insilico/anatomy';
import { SECTION_QUANTITIES, type MeasurementDefinition, type PlaneRef, type SectionQuantity } from './definitions';

/**
 * The built-in measurement set for TAVI planning, after the SCCT expert consensus (Blanke et al. 2019; Achenbach
 * et al. 2012): annulus, LVOT, sinuses of Valsalva, sinotubular junction, coronary heights and ascending aorta,
 * on the lumen of the aortic root at the systolic phase. Sources and what the synthetic anatomy lacks:
 * docs/decisions/measurements.md.
 */
export const TAVI_SET_KEY = 'scct-tavi';
/** Bump when a definition of the set changes (results keep the version they were measured with). */
export const TAVI_SET_VERSION = 1;

const plane = (landmark: LandmarkName): PlaneRef => ({ kind: 'landmark', landmark });
const annularPlane = plane('aortic_annulus');
/** The plane through the deepest points of the three sinuses (the sinus level). */
const sinusPlane: PlaneRef = {
  kind: 'three-points',
  points: [
    { landmark: 'right_coronary_sinus' },
    { landmark: 'left_coronary_sinus' },
    { landmark: 'non_coronary_sinus' },
  ],
};

const QUANTITY_WORDS: Record<SectionQuantity, string> = {
  area: 'area',
  perimeter: 'perimeter',
  'min-diameter': 'minimum diameter',
  'max-diameter': 'maximum diameter',
  'mean-diameter': 'mean diameter',
  'area-derived-diameter': 'area-derived diameter',
  'perimeter-derived-diameter': 'perimeter-derived diameter',
};

const section = (
  key: string,
  name: string,
  where: string,
  on: PlaneRef,
  quantity: SectionQuantity,
): MeasurementDefinition => ({
  key: `${key}-${quantity}`,
  name: `${name} ${QUANTITY_WORDS[quantity]}`,
  description: `${QUANTITY_WORDS[quantity][0]?.toUpperCase()}${QUANTITY_WORDS[quantity].slice(1)} of the aortic root lumen ${where}.`,
  phase: 'end-systole',
  geometry: { type: 'section', organ: 'aortic_root', plane: on, quantity },
});

const SINUSES = [
  ['right', 'right_coronary_sinus'],
  ['left', 'left_coronary_sinus'],
  ['non', 'non_coronary_sinus'],
] as const;

/** The SCCT TAVI set (key {@link TAVI_SET_KEY}, version {@link TAVI_SET_VERSION}). */
export const TAVI_MEASUREMENTS: readonly MeasurementDefinition[] = [
  ...SECTION_QUANTITIES.map((q) => section('annulus', 'Aortic annulus', 'in the annular plane', annularPlane, q)),
  ...(['area', 'perimeter', 'min-diameter', 'max-diameter', 'perimeter-derived-diameter'] as const).map((q) =>
    section('lvot', 'LVOT', 'at the left-ventricular outflow tract level below the annular plane', plane('lvot'), q),
  ),
  ...SINUSES.map(([word, landmark]): MeasurementDefinition => ({
    key: `sinus-${word}-diameter`,
    name: `Sinus of Valsalva diameter (${word === 'non' ? 'non-coronary' : `${word} coronary`} sinus)`,
    description:
      'From the deepest point of the sinus through the centre of the sinus-level section to the opposite commissure.',
    phase: 'end-systole',
    geometry: { type: 'section-chord', organ: 'aortic_root', plane: sinusPlane, towards: { landmark } },
  })),
  section('stj', 'Sinotubular junction', 'at the sinotubular junction', plane('sinotubular_junction'), 'mean-diameter'),
  {
    key: 'stj-height',
    name: 'Sinotubular junction height',
    description: 'Height of the sinotubular junction above the annular plane, perpendicular to it.',
    phase: 'end-systole',
    geometry: { type: 'height', point: { landmark: 'sinotubular_junction' }, plane: annularPlane },
  },
  {
    key: 'left-coronary-height',
    name: 'Left coronary ostium height',
    description: 'Height of the left coronary ostium above the annular plane, perpendicular to it.',
    phase: 'end-systole',
    geometry: { type: 'height', point: { landmark: 'left_coronary_ostium' }, plane: annularPlane },
  },
  {
    key: 'right-coronary-height',
    name: 'Right coronary ostium height',
    description: 'Height of the right coronary ostium above the annular plane, perpendicular to it.',
    phase: 'end-systole',
    geometry: { type: 'height', point: { landmark: 'right_coronary_ostium' }, plane: annularPlane },
  },
  section('ascending', 'Ascending aorta', 'at the mid ascending aorta', plane('ascending_aorta'), 'max-diameter'),
  {
    key: 'annular-plane-angle',
    name: 'Annular plane angulation',
    description: 'Angle between the annular plane and the axial plane of the body.',
    phase: 'end-systole',
    geometry: { type: 'plane-angle', planes: [annularPlane, { kind: 'body', plane: 'axial' }] },
  },
];
