// A static file server for the Scotland Rising board's harness page (harness/sr-board.html)
// and the client's own page (index.html): the web client's js/, css/ and data/, the fixtures
// and the harness, on a free local port. No game server: the board is fed fixture views (and
// the game page's API and WebSocket are answered by the test, e2e/sr_game_page.test.js).
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const roots = {
  '/js/': path.resolve(here, '../../web-client/js'),
  '/css/': path.resolve(here, '../../web-client/css'),
  '/data/': path.resolve(here, '../../web-client/data'),
  '/fixtures/': path.resolve(here, 'fixtures'),
  '/harness/': path.resolve(here, 'harness'),
};
const TYPES = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.html': 'text/html',
};

export async function startStatic() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const prefix = Object.keys(roots).find((p) => url.pathname.startsWith(p));
    const file =
      url.pathname === '/'
        ? path.resolve(here, '../../web-client/index.html')
        : prefix && path.resolve(roots[prefix], `.${url.pathname.slice(prefix.length - 1)}`);
    if (!file || (prefix && !file.startsWith(roots[prefix])) || !fs.existsSync(file)) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    stop: () => new Promise((resolve) => server.close(resolve)),
  };
}
