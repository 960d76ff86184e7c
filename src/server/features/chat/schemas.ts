// The requests live in the shared contract (src/contract/chat.ts), imported by the API tests too.
export { MAX_CHAT_MESSAGE, chatInput, deepThinkInput, renameInput, sessionIdParam } from '../../../contract/chat';
