import type { AgeGroup, OriginEthnicity, OriginLocation, Pathology, Phase, Sex } from '../criteria/enumerations';

/** Body size of a patient. BSA by Du Bois indexes the cardiac model; Mosteller is reported alongside. */
export interface BodySize {
  readonly height_cm: number;
  readonly weight_kg: number;
  /** Body-mass index, kg/m². */
  readonly bmi_kg_m2: number;
  /** Body-surface area by Du Bois & Du Bois (1916), m². */
  readonly bsaDuBois_m2: number;
  /** Body-surface area by Mosteller (1987), m². */
  readonly bsaMosteller_m2: number;
}

/**
 * Cardiac parameters of a patient (CT convention: aortic root at mid-systole, volumes at end-diastole and
 * end-systole). Lengths in mm, areas in mm² (valve orifice in cm²), volumes in mL, mass in g, fractions in percent.
 * Everything a parametric mesh needs is here: the annulus ellipse (major/minor), root diameters and heights,
 * chamber volumes per phase, valve annulus dimensions.
 */
export interface CardiacParameters {
  /** Mean aortic annulus diameter, (major + minor)/2, mm. */
  readonly aorticAnnulusDiameter_mm: number;
  /** Aortic annulus major (maximum) diameter of the fitted ellipse, mm. */
  readonly aorticAnnulusMajorDiameter_mm: number;
  /** Aortic annulus minor (minimum) diameter of the fitted ellipse, mm. */
  readonly aorticAnnulusMinorDiameter_mm: number;
  /** Aortic annulus perimeter of the ellipse (Ramanujan's second approximation), mm. */
  readonly aorticAnnulusPerimeter_mm: number;
  /** Aortic annulus area of the ellipse, π/4·major·minor, mm². */
  readonly aorticAnnulusArea_mm2: number;
  /** Aortic valve (geometric orifice) area, cm²; < 1.0 in severe aortic stenosis. */
  readonly aorticValveArea_cm2: number;
  /** Left-ventricular outflow tract mean diameter, mm. */
  readonly lvotDiameter_mm: number;
  /** Sinus of Valsalva diameter, mm. */
  readonly sinusOfValsalvaDiameter_mm: number;
  /** Sinotubular junction diameter, mm. */
  readonly sinotubularJunctionDiameter_mm: number;
  /** Height of the sinotubular junction above the annulus plane (aortic root / sinus height), mm. */
  readonly sinotubularJunctionHeight_mm: number;
  /** Mid ascending aorta diameter, mm. */
  readonly ascendingAortaDiameter_mm: number;
  /** Height of the left coronary ostium above the annulus plane, mm. */
  readonly leftCoronaryHeight_mm: number;
  /** Height of the right coronary ostium above the annulus plane, mm. */
  readonly rightCoronaryHeight_mm: number;
  /** LV end-diastolic volume, mL. */
  readonly lvEdv_mL: number;
  /** LV end-systolic volume, mL; equals lvEdv_mL·(1 − lvEf_percent/100). */
  readonly lvEsv_mL: number;
  /** LV ejection fraction, percent; (EDV − ESV)/EDV·100. */
  readonly lvEf_percent: number;
  /** LV myocardial mass, g (myocardial volume = mass / 1.05 g/mL). */
  readonly lvMass_g: number;
  /** LV mass index above the ASE/EACVI 2015 limit (women > 95, men > 115 g/m²). */
  readonly lvHypertrophy: boolean;
  /** Maximal left-atrial volume, mL. */
  readonly laVolume_mL: number;
  /** Maximal right-atrial volume, mL. */
  readonly raVolume_mL: number;
  /** Mitral annulus antero-posterior (septal-lateral) diameter, mm. */
  readonly mitralAnnulusApDiameter_mm: number;
  /** Mitral annulus inter-commissural diameter, mm. */
  readonly mitralAnnulusIcDiameter_mm: number;
  /** Mitral annulus area of the ellipse, π/4·AP·IC, mm². */
  readonly mitralAnnulusArea_mm2: number;
  /** Tricuspid annulus diameter, mm. */
  readonly tricuspidAnnulusDiameter_mm: number;
  /** RV end-diastolic volume, mL. */
  readonly rvEdv_mL: number;
  /** RV end-systolic volume, mL; equals rvEdv_mL·(1 − rvEf_percent/100). */
  readonly rvEsv_mL: number;
  /** RV ejection fraction, percent. */
  readonly rvEf_percent: number;
  /** Main pulmonary artery diameter, mm. */
  readonly mainPulmonaryArteryDiameter_mm: number;
}

/** One synthetic virtual patient. Every field is a pure function of (population seed, index, model version). */
export interface SyntheticPatient {
  /** Stable id, `SYN-` and the 1-based index on six digits, e.g. `SYN-000123`. */
  readonly id: string;
  /** Always true: built-in patients are synthetic (patients from uploaded imaging will carry false). */
  readonly synthetic: true;
  /** 0-based index in the population. */
  readonly index: number;
  readonly sex: Sex;
  /** Age in completed years, 18–90. */
  readonly age_years: number;
  /** Age groups the age falls in (65–75 is both adult and geriatric). */
  readonly ageGroups: readonly AgeGroup[];
  readonly originLocation: OriginLocation;
  readonly originEthnicity: OriginEthnicity;
  readonly body: BodySize;
  /** Pathologies present, in the order of PATHOLOGY_OPTIONS; empty for none. */
  readonly pathologies: readonly Pathology[];
  /** Phases for which imaging is available, in the order of PHASE_OPTIONS; cine_ct implies both others. */
  readonly phases: readonly Phase[];
  readonly cardiac: CardiacParameters;
  /** Unsigned 32-bit seed reserved for deriving this patient's meshes (shape details beyond the parameters). */
  readonly meshSeed: number;
}

/** A generated population with what is needed to regenerate it. */
export interface SyntheticPopulation {
  /** Version of the statistical model; a change of any constant bumps it. */
  readonly modelVersion: string;
  /** Unsigned 32-bit population seed. */
  readonly seed: number;
  readonly patients: readonly SyntheticPatient[];
}
