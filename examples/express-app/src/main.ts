/** `npm run example`: the example app on http://localhost:4000 against the Sesame of `npm start`. */
import { createServer } from 'node:http';
import { createExampleApp } from './app';
import { loadConfig } from './config';

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const { port, host, sesameUrl, clientId } = config;
const server = createServer(createExampleApp(config));
server.on('error', (error) => {
  console.error(`Cannot listen on port ${port}: ${error.message}`);
  process.exit(1);
});
server.listen({ port, host }, () => {
  console.log(`Example app on http://localhost:${port} (Sesame at ${sesameUrl}, client ${clientId})`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
