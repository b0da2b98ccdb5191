import { describe, expect, it } from 'vitest';
import { ENGINE_IDS } from '../../src/engines/ids.ts';
import { ENGINES } from '../../src/engines/index.ts';

describe('engine ids', () => {
  it('are exactly the keys of the registry, in its order', () => {
    expect(Object.keys(ENGINES)).toEqual([...ENGINE_IDS]);
    for (const id of ENGINE_IDS) expect(ENGINES[id].id).toBe(id);
  });
});
