/** Thrown when the input of a shape-model function is malformed (shapes that do not correspond, too few, bad option). */
export class SsmInputError extends Error {
  override readonly name = 'SsmInputError';
  readonly code = 'invalid_shape_input';
}
