import { transformPositions, type RigidTransform, type Vec3, type TriangleMesh64 } from '@insilico/mesh';
import type { SyntheticPatient } from '../population/types';
import { Xoshiro128 } from '../random/xoshiro128';
import { annulusDiscMesh } from './annulusDisc';
import { aorticRootMesh } from './aorticRoot';
import { ellipsoidMesh } from './ellipsoid';
import { heartToPatient, rotateDirection, transformPoint } from './heartFrame';
import type { Landmark, LandmarkName } from './landmarks';
import { frameAt, frameFromNormal, normalize, type LocalFrame } from './localFrame';
import { myocardiumMesh } from './myocardium';
import type { Organ } from './organs';
import { contractionOf, toMeshPhase, type MeshPhase, type MeshPhaseInput } from './phase';
import { scaleToVolume } from './scale';
import { meshTargets } from './targets';
import { ribCageMesh, thoraxSize } from './thorax';
import { truncatedEllipsoidMesh, truncatedEllipsoidVolume_mm3, type TruncatedEllipsoid } from './truncatedEllipsoid';

/** Version of the mesh model; bump on any change that alters a mesh byte. */
export const MESH_MODEL_VERSION = 'anatomy-meshes-1';

/** One organ's closed, outward-oriented mesh in the patient frame (mm, LPS, origin at the rib-cage centre). */
export interface OrganMesh {
  readonly organ: Organ;
  readonly mesh: TriangleMesh64;
}

/** A patient's meshes for one phase, with named landmarks in the same frame. */
export interface PatientMeshes {
  readonly patientId: string;
  readonly modelVersion: string;
  readonly phase: MeshPhase;
  /** 0 at end-diastole, 1 at end-systole. */
  readonly contraction: number;
  /** Patient frame: `LPS` (x left, y posterior, z superior), mm, origin at the centre of the rib cage. */
  readonly frame: 'LPS-mm-ribcage-centre';
  /** Every organ of ORGANS, in that order. */
  readonly organs: readonly OrganMesh[];
  /** Every landmark of LANDMARKS, in that order. */
  readonly landmarks: readonly Landmark[];
}

/** LV cavity length/width ratio (halfLength / radius) at end-diastole; dilated (HFrEF) ventricles are rounder. */
const LV_RATIO = 2.0;
const LV_RATIO_HEART_FAILURE = 1.6;
/** Increase of that ratio at end-systole (the cavity narrows more than it shortens). */
const LV_RATIO_SYSTOLE = 0.15;
/** Base plane above the cavity ellipsoid's centre, fraction of the half-length. */
const LV_BASE_OFFSET = 0.3;
/** RV cavity: thin (x) and wide (y) truncated ellipsoid, relative to its width. */
const RV_UNIT: TruncatedEllipsoid = { radiusX: 0.6, radiusY: 1, halfLength: 1.5, baseOffset: 0.45 };
/** Atria as ellipsoids, relative semi-axes. */
const LA_UNIT: Vec3 = [1, 1.15, 0.9];
const RA_UNIT: Vec3 = [1, 1.1, 1];
/** Expected LV wall for the layout of the RV beside it, mm (the mesh's wall is solved from the LV mass). */
const LAYOUT_WALL_MM = 11;

/**
 * Closed, consistently oriented meshes of a patient's heart and thorax for one phase (end-diastole, end-systole
 * or a cine frame), in mm in the patient frame, with named landmarks. Each shape is tessellated, then scaled so
 * that its measured value equals the patient's parameter (volumes by ∛ of the measured ratio, annuli and aortic
 * levels by the measured polygon perimeter or chord). Pure and deterministic: the same patient and phase give
 * byte-identical meshes; `patient.meshSeed` sets the shape details beyond the parameters (sinus bulges).
 */
export function buildPatientMeshes(patient: SyntheticPatient, phaseInput: MeshPhaseInput): PatientMeshes {
  const phase = toMeshPhase(phaseInput);
  const contraction = contractionOf(phase);
  const c = patient.cardiac;
  const target = meshTargets(patient, phase);
  const thorax = thoraxSize(patient.body);
  const toPatient = heartToPatient(thorax);
  const rng = new Xoshiro128(patient.meshSeed);
  const sinusAmplitudes = [0, 1, 2].map(() => 0.11 + 0.05 * rng.nextFloat());

  // --- Layout from end-diastolic sizes (the same for every phase, so cine frames stay registered). ---
  const ratioEd = patient.pathologies.includes('heart_failure') ? LV_RATIO_HEART_FAILURE : LV_RATIO;
  const unitLv = (ratio: number): TruncatedEllipsoid => ({
    radiusX: 1,
    radiusY: 1,
    halfLength: ratio,
    baseOffset: LV_BASE_OFFSET * ratio,
  });
  const lvRadiusEd = Math.cbrt((c.lvEdv_mL * 1000) / truncatedEllipsoidVolume_mm3(unitLv(ratioEd)));
  const rvWidthEd = Math.cbrt((c.rvEdv_mL * 1000) / truncatedEllipsoidVolume_mm3(RV_UNIT));
  const a = lvRadiusEd;
  const rvBase: Vec3 = [a + LAYOUT_WALL_MM + RV_UNIT.radiusX * rvWidthEd + 1, 0.1 * rvWidthEd, 3];
  const mitralCentre: Vec3 = [-0.38 * a, -0.05 * a, 0];
  const aorticFrame = frameFromNormal([0.45 * a, 0.1 * a, 2], [0.45, 0.15, 1], [1, 0, 0]);
  const mitralFrame = frameFromNormal(mitralCentre, [0, 0, 1], [0, 1, 0]);
  const tricuspidFrame = frameFromNormal([rvBase[0], rvBase[1] - 0.35 * rvWidthEd, rvBase[2]], [0, 0, 1], [0, 1, 0]);
  const pulmonaryFrame = frameFromNormal(
    [rvBase[0] - 0.3 * rvWidthEd, rvBase[1] + 0.75 * rvWidthEd, rvBase[2] + 4],
    [-0.3, 0.5, 1],
    [1, 0, 0],
  );

  // --- Ventricles. ---
  const ratio = ratioEd + LV_RATIO_SYSTOLE * contraction;
  const lvPool = truncatedEllipsoidMesh(unitLv(ratio));
  const lvScale = scaleToVolume(lvPool, [0, 0, 0], target.lvBloodPool_mL * 1000);
  const cavity: TruncatedEllipsoid = {
    radiusX: lvScale,
    radiusY: lvScale,
    halfLength: ratio * lvScale,
    baseOffset: LV_BASE_OFFSET * ratio * lvScale,
  };
  const myo = myocardiumMesh(cavity, target.lvMyocardium_mL * 1000);
  const rvPool = truncatedEllipsoidMesh(RV_UNIT);
  scaleToVolume(rvPool, [0, 0, 0], target.rvBloodPool_mL * 1000);
  translate(rvPool.positions, rvBase);

  // --- Atria, anchored at their lowest point just above their valve. ---
  const laAnchor: Vec3 = [mitralCentre[0] - 6, mitralCentre[1] - 10, 1];
  const laPool = ellipsoidMesh(LA_UNIT, laAnchor);
  scaleToVolume(laPool, laAnchor, target.laBloodPool_mL * 1000);
  const tc = tricuspidFrame.origin;
  const raAnchor: Vec3 = [tc[0] + 6, tc[1] - 6, tc[2] + 1];
  const raPool = ellipsoidMesh(RA_UNIT, raAnchor);
  scaleToVolume(raPool, raAnchor, target.raBloodPool_mL * 1000);

  // --- Aortic root and annuli. ---
  const root = aorticRootMesh(c, aorticFrame, sinusAmplitudes);
  const aorticAnnulus = annulusDiscMesh(
    aorticFrame,
    c.aorticAnnulusMajorDiameter_mm,
    c.aorticAnnulusMinorDiameter_mm,
    c.aorticAnnulusPerimeter_mm,
  );
  const mitralAnnulus = annulusDiscMesh(
    mitralFrame,
    c.mitralAnnulusIcDiameter_mm,
    c.mitralAnnulusApDiameter_mm,
    target.mitralAnnulusPerimeter_mm,
  );
  const ta = c.tricuspidAnnulusDiameter_mm;
  const tricuspidAnnulus = annulusDiscMesh(tricuspidFrame, ta, ta, Math.PI * ta);
  const pa = c.mainPulmonaryArteryDiameter_mm;
  const pulmonaryAnnulus = annulusDiscMesh(pulmonaryFrame, pa, pa, Math.PI * pa);

  const heart: [Organ, TriangleMesh64][] = [
    ['lv_blood_pool', lvPool],
    ['lv_myocardium', myo.mesh],
    ['rv_blood_pool', rvPool],
    ['la_blood_pool', laPool],
    ['ra_blood_pool', raPool],
    ['aortic_root', root.mesh],
    ['aortic_annulus', aorticAnnulus],
    ['mitral_annulus', mitralAnnulus],
    ['tricuspid_annulus', tricuspidAnnulus],
    ['pulmonary_annulus', pulmonaryAnnulus],
  ];
  for (const [, mesh] of heart) transformPositions(mesh.positions, toPatient);

  // --- Thorax, built in the patient frame. ---
  const ribs = ribCageMesh(thorax);
  const w = thorax.halfWidth_mm;
  const dpt = thorax.halfDepth_mm;
  const ht = thorax.height_mm;
  const leftLung = ellipsoidMesh([0.27 * w, 0.72 * dpt, 0.4 * ht], [0.68 * w, 0.1 * dpt, -0.38 * ht]);
  const rightLung = ellipsoidMesh([0.3 * w, 0.75 * dpt, 0.42 * ht], [-0.62 * w, 0.1 * dpt, -0.4 * ht]);

  const organs: OrganMesh[] = [
    ...heart.map(([organ, mesh]) => ({ organ, mesh })),
    { organ: 'rib_cage', mesh: ribs },
    { organ: 'left_lung', mesh: leftLung },
    { organ: 'right_lung', mesh: rightLung },
  ];

  // --- Landmarks (heart frame → patient frame). ---
  const landmarks: Landmark[] = [];
  const add = (name: LandmarkName, p: Vec3, n?: Vec3, axis?: Vec3): void => {
    const position = transformPoint(toPatient, p);
    if (n === undefined) landmarks.push({ name, position });
    else if (axis === undefined) landmarks.push({ name, position, normal: normalize(rotateDirection(toPatient, n)) });
    else {
      const normal = normalize(rotateDirection(toPatient, n));
      landmarks.push({ name, position, normal, axis: normalize(rotateDirection(toPatient, axis)) });
    }
  };
  const plane = (name: LandmarkName, f: LocalFrame, height = 0): void => add(name, frameAt(f, 0, 0, height), f.w);
  const annulus = (name: LandmarkName, f: LocalFrame): void => add(name, f.origin, f.w, f.u);
  annulus('aortic_annulus', aorticFrame);
  annulus('mitral_annulus', mitralFrame);
  annulus('tricuspid_annulus', tricuspidFrame);
  annulus('pulmonary_annulus', pulmonaryFrame);
  plane('lvot', aorticFrame, root.levels.lvot_mm);
  plane('sinus_of_valsalva', aorticFrame, root.levels.sinus_mm);
  plane('sinotubular_junction', aorticFrame, root.levels.sinotubularJunction_mm);
  plane('ascending_aorta', aorticFrame, root.levels.ascendingAorta_mm);
  add('right_coronary_sinus', root.sinusPoints[0]);
  add('left_coronary_sinus', root.sinusPoints[1]);
  add('non_coronary_sinus', root.sinusPoints[2]);
  add('left_coronary_ostium', root.leftOstium);
  add('right_coronary_ostium', root.rightOstium);
  add('lv_apex', [0, 0, myo.apexZ_mm]);
  add('lv_apex_endocardial', [0, 0, -cavity.baseOffset - cavity.halfLength]);
  add('lv_base', [0, 0, 0], [0, 0, 1]);

  return {
    patientId: patient.id,
    modelVersion: MESH_MODEL_VERSION,
    phase,
    contraction,
    frame: 'LPS-mm-ribcage-centre',
    organs,
    landmarks,
  };
}

function translate(positions: Float64Array, by: Vec3): void {
  for (let i = 0; i < positions.length; i += 3) {
    positions[i] = (positions[i] as number) + by[0];
    positions[i + 1] = (positions[i + 1] as number) + by[1];
    positions[i + 2] = (positions[i + 2] as number) + by[2];
  }
}

/** The transform from the heart frame to the patient frame used for a patient (for callers adding devices). */
export function heartTransformOf(patient: SyntheticPatient): RigidTransform {
  return heartToPatient(thoraxSize(patient.body));
}
