import { createAnthropicMessagesProvider } from '@boxagnts/api';
import { startMockServer } from '@boxagnts/testkit';
import { serve } from '@hono/node-server';
import { createShopApp } from './app.js';
import { shopScript } from './script.js';

// pnpm start, then open http://127.0.0.1:3000/ (set PORT to change it).
const live = process.env.ANTHROPIC_API_KEY !== undefined;
const mock = live ? undefined : await startMockServer({ script: shopScript() });
const provider = createAnthropicMessagesProvider(mock ? { baseURL: mock.url, apiKey: 'offline-not-secret' } : {});
const { app, close } = await createShopApp({ provider, model: 'claude-sonnet-4-6' });
const port = Number(process.env.PORT ?? 3000);
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, (info) => {
  process.stdout.write(
    `shop on http://127.0.0.1:${info.port}/ (model: ${live ? 'Claude' : `the testkit at ${mock?.url}`}); Ctrl-C stops it\n`,
  );
});
process.once('SIGINT', () => {
  server.close();
  void close().then(() => mock?.close());
});
