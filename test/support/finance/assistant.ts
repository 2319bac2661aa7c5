import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A call the provider received: its credential and chat-completions request. */
export interface ProviderCall {
  authorization?: string;
  body: { model: string; messages: { role: string; content: string }[] };
}

/**
 * A local peer speaking the OpenAI chat-completions protocol (POST /v1/chat/completions) for the
 * finance node's assistant: it answers "You asked: <question>", records each call, and answers 500
 * while `fails` is set. `env` is what a test app needs to use it.
 */
export async function startAssistantProvider() {
  const calls: ProviderCall[] = [];
  const state = { fails: false };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.url !== '/v1/chat/completions' || req.method !== 'POST') return void res.writeHead(404).end();
      const request = JSON.parse(body) as ProviderCall['body'];
      calls.push({ authorization: req.headers.authorization, body: request });
      if (state.fails) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
      const question = request.messages.at(-1)!.content;
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: 'local-model',
          choices: [{ index: 0, message: { role: 'assistant', content: `You asked: ${question}` }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return {
    url,
    calls,
    state,
    env: { ASSISTANT_API_KEY: 'sk-local-test', ASSISTANT_BASE_URL: url, ASSISTANT_MODEL: 'local-model' },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
