import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRecordingServer, type RecordingServer } from "../../lib/recording-server.test-support";
import { ApiClient } from "./api.server";

let go: RecordingServer;
beforeAll(async () => {
  go = await startRecordingServer();
});
afterAll(() => go.close());

describe("ApiClient", () => {
  // Go's front door would gzip each loopback answer only for this process to inflate it.
  it("asks Go for an uncompressed answer (Accept-Encoding: identity)", async () => {
    const answer = await new ApiClient({ baseUrl: go.base }).request("GET", "/api/user");
    expect(answer.body).toEqual({ ok: true });
    expect(go.seen[0]?.["accept-encoding"]).toBe("identity");
  });
});
