export type TutorialId = 'trades-log' | 'reflect-page' | 'reflectai';

/** The videos recorded from this app by scripts/record-tutorials.ts (served from src/web/public/tutorials), by tutorial. */
export const RECORDED_VIDEOS: Record<TutorialId, { src: string; poster: string }> = {
  'trades-log': { src: '/tutorials/trades-log.webm', poster: '/tutorials/trades-log.webp' },
  'reflect-page': { src: '/tutorials/reflect-page.webm', poster: '/tutorials/reflect-page.webp' },
  reflectai: { src: '/tutorials/reflectai.webm', poster: '/tutorials/reflectai.webp' },
};
