// A checkpoint for adapter tests that call `publish` directly, without the worker (which stores it on the target):
// it keeps what was saved, so a test can start a second attempt from the first one's checkpoint.
import type { Checkpoint, CheckpointState } from '../../src/providers/kit/steps.ts';

export interface KeptCheckpoint extends Checkpoint {
  /** Every state saved, oldest first. */
  readonly saves: CheckpointState[];
}

export function keptCheckpoint(saved?: CheckpointState): KeptCheckpoint {
  const saves: CheckpointState[] = [];
  return {
    get saved() {
      return saves.at(-1) ?? saved;
    },
    saves,
    save: async (state) => {
      saves.push(structuredClone(state));
    },
  };
}
