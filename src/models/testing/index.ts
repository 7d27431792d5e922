/** Test helpers for anything built on models: scripted OpenAI-compatible, Anthropic and Ollama servers, and a tiny GGUF model. */
export {
  fakeLogprobs,
  startFakeOpenAIServer,
  type FakeChatRequest,
  type FakeChoice,
  type FakeFailure,
  type FakeOpenAIServer,
  type FakeReply,
  type FakeScript,
  type FakeServerOptions,
  type FakeToolCall,
} from './fake-openai-server.js';
export {
  anthropicText,
  startFakeAnthropicServer,
  type FakeAnthropicFailure,
  type FakeAnthropicMessage,
  type FakeAnthropicReply,
  type FakeAnthropicRequest,
  type FakeAnthropicServer,
  type FakeAnthropicServerOptions,
  type FakeToolUse,
} from './fake-anthropic-server.js';
export {
  startFakeOllamaServer,
  type FakeOllamaFailure,
  type FakeOllamaMessage,
  type FakeOllamaReply,
  type FakeOllamaRequest,
  type FakeOllamaServer,
  type FakeOllamaServerOptions,
  type FakeOllamaToolCall,
} from './fake-ollama-server.js';
export { tinyVocabulary, writeTinyGguf, type TinyGgufOptions } from './tiny-gguf.js';
