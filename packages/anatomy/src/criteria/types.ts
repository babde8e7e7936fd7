import type {
  AgeGroup,
  BodyDimension,
  BodyPart,
  OptionStatus,
  OriginEthnicity,
  OriginLocation,
  OriginMode,
  Pathology,
  Phase,
  Sex,
} from './enumerations';

/** A min/max range of a body-dimension slider, in the slider's unit. */
export interface NumericRange {
  readonly min: number;
  readonly max: number;
}

/**
 * Criteria of a cohort order (spec §3 "Cohort criteria"). Every option carries a status; options absent from a
 * map are `default`. `pathology` may also hold user-requested keys with status `new`.
 */
export interface CohortCriteria {
  readonly body_part: BodyPart;
  readonly pathology: Readonly<Partial<Record<Pathology, OptionStatus>> & Record<string, OptionStatus>>;
  readonly sex: Readonly<Partial<Record<Sex, OptionStatus>>>;
  readonly body_dimensions: Readonly<Record<BodyDimension, NumericRange>>;
  readonly origin: {
    /** Which of the two maps filters; the other is ignored (and cleared by the toggle helpers). */
    readonly by: OriginMode;
    readonly location: Readonly<Partial<Record<OriginLocation, OptionStatus>>>;
    readonly ethnicity: Readonly<Partial<Record<OriginEthnicity, OptionStatus>>>;
  };
  readonly age_group: Readonly<Partial<Record<AgeGroup, OptionStatus>>>;
  readonly phases_of_heart_cycle: Readonly<Partial<Record<Phase, OptionStatus>>>;
}
