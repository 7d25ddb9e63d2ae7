// A server-rendered page collected whole (entry.server.tsx): the Go front door reads
// every page whole before answering (it hashes the page's own scripts, decision 015),
// so the worker answers one body of a stated length instead of streaming React's 2 KB
// chunks, each of which cost a socket write here and a read there.
import { Writable } from "node:stream";

/**
 * Gives pipe a destination, and resolves with everything written to it once it is
 * ended. Rejects when the destination is destroyed first (React does so when
 * rendering fails after the shell): there is no whole page then.
 */
export function collectPage(pipe: (destination: Writable) => unknown): Promise<Buffer<ArrayBuffer>> {
  return new Promise<Buffer<ArrayBuffer>>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let done = false;
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        done = true;
        resolve(Buffer.concat(chunks));
        callback();
      },
    });
    // The error also comes with "close"; without a listener of its own, "error" would
    // be thrown out of the worker.
    destination.on("error", () => {});
    destination.once("close", () => {
      if (!done) reject(destination.errored ?? new Error("The page's rendering stopped before its end"));
    });
    pipe(destination);
  });
}
