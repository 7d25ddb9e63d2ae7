// A real HTTP server on loopback that records the headers of each request and answers
// {"ok":true}: tests of server-side calls assert what Node's fetch really sends.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordingServer {
  base: string;
  seen: IncomingHttpHeaders[];
  close(): Promise<void>;
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
