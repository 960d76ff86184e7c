import { describe, expect, it } from 'vitest';
import { initialReplay, replayKey, replayReducer, type ReplayAction, type ReplayState } from './replay-state';

const run = (state: ReplayState, ...actions: ReplayAction[]) => actions.reduce(replayReducer, state);

describe('the replay of a trade', () => {
  it('plays a bar a tick and stops at the last bar; playing again from the end starts over', () => {
    let state = run(initialReplay(4), { type: 'play' });
    expect(state).toMatchObject({ index: 0, playing: true });
    state = run(state, { type: 'tick' }, { type: 'tick' });
    expect(state).toMatchObject({ index: 2, playing: true });
    state = run(state, { type: 'tick' });
    expect(state).toMatchObject({ index: 3, playing: false });
    expect(run(state, { type: 'tick' })).toBe(state);
    expect(run(state, { type: 'play' })).toMatchObject({ index: 0, playing: true });
  });

  it('a step or a seek pauses, and stays within the bars', () => {
    const playing = run(initialReplay(10, 5), { type: 'play' });
    expect(run(playing, { type: 'step', by: 1 })).toMatchObject({ index: 6, playing: false });
    expect(run(playing, { type: 'step', by: -9 })).toMatchObject({ index: 0 });
    expect(run(playing, { type: 'seek', index: Number.MAX_SAFE_INTEGER })).toMatchObject({ index: 9, playing: false });
    // A window of one bar has nothing to play.
    expect(run(initialReplay(1), { type: 'play' })).toMatchObject({ playing: false });
  });

  it('changes speed within its steps', () => {
    const state = initialReplay(10);
    expect(state.speed).toBe(2);
    expect(run(state, { type: 'faster' }, { type: 'faster' }, { type: 'faster' }, { type: 'faster' }).speed).toBe(25);
    expect(run(state, { type: 'slower' }, { type: 'slower' }).speed).toBe(1);
  });

  it('reads the keys video players use', () => {
    expect([' ', 'k', 'ArrowRight', 'ArrowLeft', 'Home', 'End', '+', '-', 'x'].map(replayKey)).toEqual([
      { type: 'toggle' },
      { type: 'toggle' },
      { type: 'step', by: 1 },
      { type: 'step', by: -1 },
      { type: 'seek', index: 0 },
      { type: 'seek', index: Number.MAX_SAFE_INTEGER },
      { type: 'faster' },
      { type: 'slower' },
      null,
    ]);
  });
});
