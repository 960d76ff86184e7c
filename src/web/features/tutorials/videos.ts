export type TutorialId = 'trades-log' | 'reflect-page' | 'reflectai';

/**
 * The videos recorded from this app by scripts/record-tutorials.ts (served from src/web/public/tutorials), by
 * tutorial, each with its WebVTT captions (written by the same script).
 */
export const RECORDED_VIDEOS: Record<TutorialId, { src: string; poster: string; captions: string }> = {
  'trades-log': { src: '/tutorials/trades-log.webm', poster: '/tutorials/trades-log.webp', captions: '/tutorials/trades-log.vtt' },
  'reflect-page': { src: '/tutorials/reflect-page.webm', poster: '/tutorials/reflect-page.webp', captions: '/tutorials/reflect-page.vtt' },
  reflectai: { src: '/tutorials/reflectai.webm', poster: '/tutorials/reflectai.webp', captions: '/tutorials/reflectai.vtt' },
};
