// Collects a library start's events and result, for assertions.
import type { VigilEvent } from '../../src/events.ts';
import type { StartHandle, StartResult } from '../../src/watch/result.ts';

export interface Collected {
  events: VigilEvent[];
  result: StartResult;
  /** The events of one type, in order. */
  of<T extends VigilEvent['type']>(type: T): Extract<VigilEvent, { type: T }>[];
}

// Reads every event of the handle, then its result.
export const collect = async (handle: StartHandle): Promise<Collected> => {
  const events: VigilEvent[] = [];
  for await (const event of handle.events) events.push(event);
  const result = await handle.result;
  return {
    events,
    result,
    of: <T extends VigilEvent['type']>(type: T) =>
      events.filter((e): e is Extract<VigilEvent, { type: T }> => e.type === type),
  };
};
