// The requests live in the shared contract (src/contract/attachments.ts), imported by the web app and the API tests too.
export {
  attachmentFileParam,
  attachmentIdParam,
  attachmentListQuery,
  attachmentUploadFields,
  attachmentUrlInput,
} from '../../../contract/attachments';
