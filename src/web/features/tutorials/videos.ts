export type TutorialId = 'trades-log' | 'reflect-page' | 'reflectai';

/**
 * The videos recorded from this app by scripts/record-tutorials.ts (served from src/web/public/tutorials), by
 * tutorial. A tutorial whose page is not finished has no recording yet.
 */
export const RECORDED_VIDEOS: Partial<Record<TutorialId, { src: string; poster: string }>> = {
  'trades-log': { src: '/tutorials/trades-log.webm', poster: '/tutorials/trades-log.webp' },
};
