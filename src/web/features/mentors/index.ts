export { MentorCommentsIndicator } from './mentor-comments-indicator';
export { MentorsSettings } from './mentors-settings';
