// The requests live in the shared contract (src/contract/notes.ts), imported by the web app and the API tests too.
export {
  draftInput,
  folderIdParam,
  folderInput,
  noteIdParam,
  noteInput,
  noteListQuery,
  notePatch,
  tagInput,
  type DraftInput,
  type NoteInput,
  type NoteListQuery,
  type NotePatch,
} from '../../../contract/notes';
