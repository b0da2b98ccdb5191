// Searches file chunks on worker threads, so that reading a large log uses every core. On a long log with few lines
// that matter the search is nearly the whole cost (1 GB of heartbeats: 3.7 s on one core, 2.1 s with two workers);
// the main thread only reads, counts lines and diagnoses the few lines found. Hand-written over node:worker_threads:
// the pools on npm (piscina, workerpool) copy each task's data, where here the workers read chunks in shared memory.
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SearchReply, SearchRequest, SearchWorkerData } from './search-worker.ts';

export interface SearchPool {
  /** Buffers in shared memory that the workers read: file chunks are read into these. */
  readonly buffers: readonly Buffer[];
  /** The start of each line of buffers[slot][from, to) that holds one of the literals, ascending. */
  search(slot: number, from: number, to: number, literals: readonly string[]): Promise<number[]>;
  /** Stops the workers (a search still running is refused). */
  close(): Promise<void>;
}

export interface SearchPoolOptions {
  workers: number;
  /** How many shared buffers, and how large each. */
  slots: number;
  bufferBytes: number;
}

const WORKER = new URL(`./search-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

// From source (tests, tsx) the worker is a .ts file. Node 20 runs one only through tsx's loader, and its module hooks
// do not reach worker threads, so the worker loads it through tsx's API. The installed package starts its .js file.
const startWorker = (workerData: SearchWorkerData): Worker => {
  if (!WORKER.pathname.endsWith('.ts')) return new Worker(WORKER, { workerData });
  const tsx = import.meta.resolve('tsx/esm/api');
  const load = `import(${JSON.stringify(tsx)}).then((api) => api.tsImport(${JSON.stringify(WORKER.href)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(load, { eval: true, workerData });
};

interface Waiting {
  resolve: (starts: number[]) => void;
  reject: (error: Error) => void;
}

// One worker with the searches it was given and the literals it holds.
const createSearcher = (workerData: SearchWorkerData) => {
  const worker = startWorker(workerData);
  const waiting = new Map<number, Waiting>();
  let literalsKey: string | null = null;
  let failure: Error | null = null;
  const failAll = (error: Error): void => {
    failure ??= error;
    for (const entry of waiting.values()) entry.reject(failure);
    waiting.clear();
  };
  worker.on('message', (reply: SearchReply) => {
    const entry = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.starts !== undefined) entry?.resolve(reply.starts);
    else entry?.reject(new Error(`a search worker failed: ${reply.error ?? 'no reason given'}`));
  });
  worker.on('error', failAll);
  worker.on('exit', (code) => {
    failAll(new Error(`a search worker stopped (exit code ${String(code)})`));
  });
  return {
    get busy(): number {
      return waiting.size;
    },
    search(request: Omit<SearchRequest, 'literals'>, literals: readonly string[]): Promise<number[]> {
      if (failure !== null) return Promise.reject(failure);
      const key = literals.join('\n');
      const message: SearchRequest = key === literalsKey ? request : { ...request, literals };
      literalsKey = key;
      return new Promise<number[]>((resolve, reject) => {
        waiting.set(request.id, { resolve, reject });
        worker.postMessage(message);
      });
    },
    async close(): Promise<void> {
      failure ??= new Error('the search pool was closed');
      await worker.terminate();
    },
  };
};

// Starts the workers and allocates the shared buffers.
export const createSearchPool = (options: SearchPoolOptions): SearchPool => {
  const memory = Array.from({ length: options.slots }, () => new SharedArrayBuffer(options.bufferBytes));
  const searchers = Array.from({ length: options.workers }, () => createSearcher({ buffers: memory }));
  let nextId = 0;
  return {
    buffers: memory.map((shared) => Buffer.from(shared)),
    search(slot, from, to, literals) {
      // The least busy worker takes it.
      const searcher = searchers.reduce((best, candidate) => (candidate.busy < best.busy ? candidate : best));
      return searcher.search({ id: nextId++, slot, from, to }, literals);
    },
    async close() {
      await Promise.all(searchers.map((searcher) => searcher.close()));
    },
  };
};
