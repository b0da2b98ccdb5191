import { describe, expect, it } from 'vitest';
import { createChannel } from '../../src/watch/channel.ts';

describe('createChannel', () => {
  it('hands over values pushed before and while it is read, then ends on close', async () => {
    const channel = createChannel<number>();
    channel.push(1);
    const seen: number[] = [];
    const reading = (async () => {
      for await (const value of channel) seen.push(value);
    })();
    channel.push(2);
    await new Promise((r) => setTimeout(r, 10));
    channel.push(3);
    channel.close();
    channel.push(4);
    await reading;
    expect(seen).toEqual([1, 2, 3]);
  });

  it('stops buffering when the reader breaks off', async () => {
    const channel = createChannel<number>();
    channel.push(1);
    channel.push(2);
    for await (const value of channel) {
      expect(value).toBe(1);
      break;
    }
    channel.push(3);
    const rest: number[] = [];
    for await (const value of channel) rest.push(value);
    expect(rest).toEqual([]);
  });
});
