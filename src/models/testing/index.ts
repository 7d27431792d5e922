/** Test helpers for anything built on models: a scripted OpenAI-compatible server and a tiny GGUF model. */
export { fakeLogprobs, startFakeOpenAIServer, type FakeChatRequest, type FakeChoice, type FakeFailure, type FakeOpenAIServer, type FakeReply, type FakeScript, type FakeServerOptions, type FakeToolCall } from './fake-openai-server.js';
export { tinyVocabulary, writeTinyGguf, type TinyGgufOptions } from './tiny-gguf.js';
