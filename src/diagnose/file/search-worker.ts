// A worker thread of a parallel file search (search-pool.ts): searches regions of the pool's shared buffers for the
// lines that hold a literal, with the same search the main thread uses.
import { parentPort, workerData } from 'node:worker_threads';
import { createLineSearch } from './line-finder.ts';

/** A region of one of the shared buffers to search, with the literals when they changed since this worker's last. */
export interface SearchRequest {
  id: number;
  slot: number;
  from: number;
  to: number;
  literals?: readonly string[];
}

/** The line starts found, or why the search failed. */
export interface SearchReply {
  id: number;
  starts?: number[];
  error?: string;
}

/** What the pool gives each worker at its start. */
export interface SearchWorkerData {
  buffers: readonly SharedArrayBuffer[];
}

const port = parentPort;
if (port === null) throw new Error('search-worker.ts runs only as a worker thread');
const buffers = (workerData as SearchWorkerData).buffers.map((memory) => Buffer.from(memory));
const search = createLineSearch();

port.on('message', (request: SearchRequest) => {
  const reply: SearchReply = { id: request.id };
  try {
    if (request.literals !== undefined) search.setLiterals(request.literals);
    const buffer = buffers[request.slot];
    if (buffer === undefined) throw new RangeError(`no shared buffer ${String(request.slot)}`);
    reply.starts = search.lineStarts(buffer, request.from, request.to);
  } catch (error) {
    reply.error = error instanceof Error ? error.message : String(error);
  }
  port.postMessage(reply);
});
