/** Limits of a trader's saved report views: a name fits the sidebar, and the list stays one a trader can scan. */
export const SAVED_VIEW_NAME_MAX = 60;
export const SAVED_VIEWS_MAX = 50;
