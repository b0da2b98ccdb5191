// Machine output: jsonl prints every event as one JSON line; json prints one object, the result, at the end.
import { EVENT_SCHEMA_VERSION, type VigilEvent } from '../events.ts';
import { redactEvent } from '../redact/redactor.ts';
import type { Renderer, RendererOptions } from './types.ts';

const isFinal = (event: VigilEvent): boolean => event.type === 'ready' || event.type === 'failed';

// The JSON text of an event: every string redacted, plus the schema version `v`.
export const serializeEvent = (event: VigilEvent, redact: (text: string) => string): string =>
  JSON.stringify({ ...redactEvent(event, redact), v: EVENT_SCHEMA_VERSION });

// jsonl: the events of docs/events.md one per line; after `ready`/`failed` only another final event may follow,
// so the last line of a watch is always its verdict.
export const createJsonlRenderer = (options: RendererOptions): Renderer => {
  let ended = false;
  return {
    render(event) {
      if (ended && !isFinal(event)) return;
      ended ||= isFinal(event);
      options.stream.write(`${serializeEvent(event, options.redact)}\n`);
    },
    close: () => undefined,
  };
};

// Results a command can end with, best first: a watch's verdict, then a diagnosis, then a preflight report.
const RESULT_RANK: Partial<Record<VigilEvent['type'], number>> = {
  ready: 3,
  failed: 3,
  diagnosis: 2,
  preflight: 1,
};

// json: remembers the command's result and prints it as one object when the renderer closes.
export const createJsonRenderer = (options: RendererOptions): Renderer => {
  let result: VigilEvent | null = null;
  let printed = false;
  return {
    render(event) {
      const rank = RESULT_RANK[event.type];
      if (rank === undefined) return;
      if (result === null || rank >= (RESULT_RANK[result.type] ?? 0)) result = event;
    },
    close() {
      if (printed || result === null) return;
      printed = true;
      options.stream.write(`${serializeEvent(result, options.redact)}\n`);
    },
  };
};
