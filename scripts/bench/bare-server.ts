// Child process of bench-api and bench-load: the baseline, a bare node:http server answering a fixed JSON.
import { createServer } from 'node:http';

const body = JSON.stringify({ success: true, estimate: { net_to_seller: 279341 } });
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`LISTENING http://127.0.0.1:${address.port}`);
});
