import { enclosedVolume_mm3, planeSection, sectionChord_mm, type TriangleMesh, type Vec3 } from '@insilico/mesh';
import type { PatientMeshes } from './buildPatientMeshes';
import type { Landmark, LandmarkName } from './landmarks';
import type { Organ } from './organs';
import type { MeshMeasurements } from './targets';

/** The mesh of `organ` in a patient's meshes; throws if absent. */
export function organMesh(meshes: PatientMeshes, organ: Organ): TriangleMesh {
  const found = meshes.organs.find((o) => o.organ === organ);
  if (found === undefined) throw new Error(`no mesh for ${organ}`);
  return found.mesh;
}

/** The landmark `name` of a patient's meshes; throws if absent. */
export function landmarkOf(meshes: PatientMeshes, name: LandmarkName): Landmark {
  const found = meshes.landmarks.find((l) => l.name === name);
  if (found === undefined) throw new Error(`no landmark ${name}`);
  return found;
}

/**
 * Measures a patient's meshes the way a CT reader would, using only the meshes and landmarks: chamber and
 * myocardial volumes by the divergence theorem (mL); each annulus in the plane of its landmark (perimeter mm,
 * area mm²; aortic and mitral major/minor diameters as calipers through the centre along the landmark's axis and
 * across it; the tricuspid and pulmonary diameters are perimeter-derived, perimeter/π); the LVOT, STJ and
 * ascending aorta as perimeter-derived diameters of the root's section at their landmark planes; the sinus of
 * Valsalva diameter as the mean of the three sinus-to-commissure chords through the sinus-level centre (mm).
 */
export function measurePatientMeshes(meshes: PatientMeshes): MeshMeasurements {
  const volume = (organ: Organ): number => enclosedVolume_mm3(organMesh(meshes, organ)) / 1000;
  const section = (organ: Organ, name: LandmarkName): { perimeter_mm: number; area_mm2: number } => {
    const l = landmarkOf(meshes, name);
    if (l.normal === undefined) throw new Error(`landmark ${name} has no plane`);
    return planeSection(organMesh(meshes, organ), l.position, l.normal);
  };
  const root = organMesh(meshes, 'aortic_root');
  const level = landmarkOf(meshes, 'sinus_of_valsalva');
  const normal = level.normal ?? [0, 0, 1];
  let chords = 0;
  for (const sinus of ['right_coronary_sinus', 'left_coronary_sinus', 'non_coronary_sinus'] as const) {
    const p = landmarkOf(meshes, sinus).position;
    const c = level.position;
    chords += sectionChord_mm(root, c, normal, [p[0] - c[0], p[1] - c[1], p[2] - c[2]]);
  }
  const aortic = section('aortic_annulus', 'aortic_annulus');
  const mitral = section('mitral_annulus', 'mitral_annulus');
  /** Caliper diameters of an annulus through its centre along its axis (major) and across it (minor), mm. */
  const diameters = (organ: Organ, name: LandmarkName): [number, number] => {
    const l = landmarkOf(meshes, name);
    const n = l.normal ?? [0, 0, 1];
    const u = l.axis ?? [1, 0, 0];
    const v: Vec3 = [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]];
    const m = organMesh(meshes, organ);
    return [sectionChord_mm(m, l.position, n, u), sectionChord_mm(m, l.position, n, v)];
  };
  const [aorticMajor, aorticMinor] = diameters('aortic_annulus', 'aortic_annulus');
  const [mitralIc, mitralAp] = diameters('mitral_annulus', 'mitral_annulus');
  return {
    lvBloodPool_mL: volume('lv_blood_pool'),
    lvMyocardium_mL: volume('lv_myocardium'),
    rvBloodPool_mL: volume('rv_blood_pool'),
    laBloodPool_mL: volume('la_blood_pool'),
    raBloodPool_mL: volume('ra_blood_pool'),
    aorticAnnulusPerimeter_mm: aortic.perimeter_mm,
    aorticAnnulusArea_mm2: aortic.area_mm2,
    aorticAnnulusMajorDiameter_mm: aorticMajor,
    aorticAnnulusMinorDiameter_mm: aorticMinor,
    mitralAnnulusPerimeter_mm: mitral.perimeter_mm,
    mitralAnnulusArea_mm2: mitral.area_mm2,
    mitralAnnulusIcDiameter_mm: mitralIc,
    mitralAnnulusApDiameter_mm: mitralAp,
    tricuspidAnnulusDiameter_mm: section('tricuspid_annulus', 'tricuspid_annulus').perimeter_mm / Math.PI,
    pulmonaryAnnulusDiameter_mm: section('pulmonary_annulus', 'pulmonary_annulus').perimeter_mm / Math.PI,
    lvotDiameter_mm: section('aortic_root', 'lvot').perimeter_mm / Math.PI,
    sinusOfValsalvaDiameter_mm: chords / 3,
    sinotubularJunctionDiameter_mm: section('aortic_root', 'sinotubular_junction').perimeter_mm / Math.PI,
    ascendingAortaDiameter_mm: section('aortic_root', 'ascending_aorta').perimeter_mm / Math.PI,
  };
}
