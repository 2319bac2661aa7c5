/**
 * The download baseline: a plain static file server (express.static: Range, ETag, Content-Length)
 * over a directory. `node dist/bench/servers/static.js` with ROOT and PORT.
 */
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.use(express.static(process.env.ROOT!, { dotfiles: 'deny', index: false }));
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`READY ${JSON.stringify({ url: `http://127.0.0.1:${address.port}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
