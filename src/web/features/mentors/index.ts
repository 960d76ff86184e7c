export { MentorsSettings } from './mentors-settings';
