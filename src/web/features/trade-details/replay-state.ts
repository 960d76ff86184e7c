/**
 * A trade's replay: which bar is drawn last, whether it plays, and how fast. The bars are those of the chart's window;
 * playing moves one bar on every tick and stops at the last. Keys, as video players use them: Space or K plays and
 * pauses, the arrows (or J and L) step a bar, Home and End go to the first and last bar, + and - change the speed.
 */

/** Bars a second at each speed. */
export const REPLAY_SPEEDS = [1, 2, 5, 10, 25] as const;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

export interface ReplayState {
  /** The last bar drawn (an index into the chart's bars). */
  index: number;
  /** The index of the last bar. */
  last: number;
  playing: boolean;
  speed: ReplaySpeed;
}

export type ReplayAction =
  | { type: 'toggle' }
  | { type: 'play' }
  | { type: 'pause' }
  /** One tick of the clock while playing. */
  | { type: 'tick' }
  | { type: 'step'; by: number }
  | { type: 'seek'; index: number }
  | { type: 'speed'; speed: ReplaySpeed }
  | { type: 'faster' }
  | { type: 'slower' };

export function initialReplay(bars: number, startAt = 0): ReplayState {
  const last = Math.max(0, bars - 1);
  return { index: Math.min(Math.max(0, startAt), last), last, playing: false, speed: 2 };
}

const clamp = (index: number, last: number) => Math.min(Math.max(0, index), last);

export function replayReducer(state: ReplayState, action: ReplayAction): ReplayState {
  switch (action.type) {
    case 'toggle':
      return replayReducer(state, { type: state.playing ? 'pause' : 'play' });
    case 'play':
      // At the end, playing again starts over.
      return { ...state, playing: state.last > 0, index: state.index >= state.last ? 0 : state.index };
    case 'pause':
      return { ...state, playing: false };
    case 'tick': {
      if (!state.playing) return state;
      const index = clamp(state.index + 1, state.last);
      return { ...state, index, playing: index < state.last };
    }
    case 'step':
      return { ...state, playing: false, index: clamp(state.index + action.by, state.last) };
    case 'seek':
      return { ...state, playing: false, index: clamp(action.index, state.last) };
    case 'speed':
      return { ...state, speed: action.speed };
    case 'faster':
    case 'slower': {
      const at = REPLAY_SPEEDS.indexOf(state.speed);
      const next = REPLAY_SPEEDS[clamp(at + (action.type === 'faster' ? 1 : -1), REPLAY_SPEEDS.length - 1)]!;
      return { ...state, speed: next };
    }
  }
}

/** The action a key asks for in the replay, or null for a key it leaves alone. */
export function replayKey(key: string): ReplayAction | null {
  switch (key) {
    case ' ':
    case 'k':
    case 'K':
      return { type: 'toggle' };
    case 'ArrowRight':
    case 'l':
    case 'L':
      return { type: 'step', by: 1 };
    case 'ArrowLeft':
    case 'j':
    case 'J':
      return { type: 'step', by: -1 };
    case 'Home':
      return { type: 'seek', index: 0 };
    case 'End':
      return { type: 'seek', index: Number.MAX_SAFE_INTEGER };
    case '+':
    case '=':
      return { type: 'faster' };
    case '-':
    case '_':
      return { type: 'slower' };
    default:
      return null;
  }
}
