// An unbounded single-consumer queue that core code pushes events into and a caller reads with for-await.
// Events are few (probes, phases, notable lines), so buffering what a caller has not read yet is cheap.

// What launch() and watch() hand out as `events`, with the producer side attached.
export interface Channel<T> extends AsyncIterable<T> {
  push(value: T): void;
  /** Ends the iteration once the buffered values are read. */
  close(): void;
}

// Creates a channel; iterate it once.
export const createChannel = <T>(): Channel<T> => {
  const buffer: T[] = [];
  let closed = false;
  let waiting: ((result: IteratorResult<T>) => void) | null = null;
  return {
    push(value) {
      if (closed) return;
      if (waiting === null) {
        buffer.push(value);
        return;
      }
      const resolve = waiting;
      waiting = null;
      resolve({ value, done: false });
    },
    close() {
      closed = true;
      if (waiting !== null) {
        const resolve = waiting;
        waiting = null;
        resolve({ value: undefined, done: true });
      }
    },
    [Symbol.asyncIterator]: () => ({
      next: () => {
        const value = buffer.shift();
        if (value !== undefined) return Promise.resolve({ value, done: false });
        if (closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<T>>((resolve) => {
          waiting = resolve;
        });
      },
      return: () => {
        closed = true;
        buffer.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    }),
  };
};
