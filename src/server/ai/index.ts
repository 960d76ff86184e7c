export { createAiService, aiBaseUrl, type AiEvent, type AiMessage, type AiRequest, type AiService, type AiPurpose } from './service';
export { AiError, AI_MESSAGES, toAiError, type AiErrorKind } from './errors';
export { sseResponse, wantsEventStream, type SseWriter } from './sse';
