// The socket's limit: a bare node:http server sending one prebuilt body (the first file given) to every request, with
// the headers of the answer it stands for (the second, JSON). What the evap server is measured against, with the same
// client in the same run.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const body = readFileSync(process.argv[2]!);
const headers = { ...(JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as Record<string, string>), 'content-length': String(body.byteLength) };
const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
