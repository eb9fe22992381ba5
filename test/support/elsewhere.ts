// A host that is not the network's (on 127.0.0.1, another port than the stand-in's): it records the Authorization
// header of every request that reaches it and answers 200 with `{}`, for tests that a network's answer naming it
// gets no token sent there.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Elsewhere {
  url: string;
  /** The Authorization header of each request received (undefined where it had none). */
  authorizations: (string | undefined)[];
  stop(): Promise<void>;
}

export async function startElsewhere(): Promise<Elsewhere> {
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    authorizations,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
