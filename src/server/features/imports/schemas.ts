// The requests live in the shared contract (src/contract/imports.ts), imported by the web app and the API tests too.
export {
  ACCOUNT_REQUIRED_MESSAGE,
  accountParam,
  columnMapping,
  feeScheduleInput,
  importQuery,
  previewQuery,
  type ImportQuery,
  type PreviewQuery,
} from '../../../contract/imports';
