// The floor the short links are measured against: node:http answering every /l/<code> with the same 302 and
// headers a browser needs, no lookup and no counting. Env: LOCATION, PORT, HOST.
import { createServer } from 'node:http';

const location = process.env.LOCATION ?? 'https://example.com/';

const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  res.writeHead(302, { location, 'cache-control': 'no-store', 'content-length': '0' }).end();
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
