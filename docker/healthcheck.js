// The image's HEALTHCHECK: `node docker/healthcheck.js <PORT_VARIABLE> <default port>`. Asks the app's
// own GET /<API_PREFIX>/health (Postgres and Redis; Redis and SMTP for the worker) with Node's fetch,
// and exits 0 when it answers 200, 1 otherwise (down, 503, or no answer within 4 seconds).
const [portVariable, defaultPort] = process.argv.slice(2);
const port = process.env[portVariable] || defaultPort;
const prefix = (process.env.API_PREFIX || 'api').replace(/^\/+|\/+$/g, '');

globalThis
  .fetch(`http://127.0.0.1:${port}/${prefix}/health`, { signal: globalThis.AbortSignal.timeout(4000) })
  .then((response) => process.exit(response.status === 200 ? 0 : 1))
  .catch(() => process.exit(1));
