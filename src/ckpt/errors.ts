// Checkpoint errors: one VigilError (code E_CKPT) per way a safetensors file can be wrong, named after the
// reference implementation's SafeTensorError variants so a user can match them to what Python reports.
import { VigilError } from '../errors.ts';

export type CheckpointProblem =
  | 'HeaderTooSmall'
  | 'HeaderTooLarge'
  | 'InvalidHeaderLength'
  | 'InvalidHeader'
  | 'InvalidHeaderDeserialization'
  | 'InvalidOffset'
  | 'ValidationOverflow'
  | 'MisalignedSlice'
  | 'TensorInvalidInfo'
  | 'MetadataIncompleteBuffer'
  | 'DuplicateName'
  | 'InvalidMetadata'
  | 'InvalidIndex'
  | 'InvalidConfig'
  | 'NameCollision'
  | 'InvalidMap'
  | 'Interrupted'
  | 'VerifyFailed'
  | 'IoError';

export class CheckpointError extends VigilError {
  /** Which rule the file broke (the reference implementation's error name where one exists). */
  readonly problem: CheckpointProblem;
  /** The file at fault, when there is one. */
  readonly path: string | undefined;

  constructor(problem: CheckpointProblem, message: string, hint: string, path?: string, cause?: unknown) {
    super('E_CKPT', path === undefined ? message : `${path}: ${message}`, {
      hint,
      ...(cause === undefined ? {} : { cause }),
    });
    this.name = 'CheckpointError';
    this.problem = problem;
    this.path = path;
  }
}

/** The hint for a file that is not a valid safetensors file: vigil changed nothing. */
export const NOT_SAFETENSORS_HINT =
  'the file is not a valid safetensors file, so vigil left it untouched; re-export it (save_file / save_pretrained) or restore it from its source';
