// The requests live in the shared contract (src/contract/journal.ts), imported by the web app and the API tests too.
export { journalDateParam, journalDayQuery, journalDaysQuery, journalNoteInput } from '../../../contract/journal';
