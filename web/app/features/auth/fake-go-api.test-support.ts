// A small stand-in for the Go API's auth endpoints, for unit tests of the auth layer:
// it keeps sessions by cookie, checks the CSRF header like Go, and records every call.
import { parseCookieHeader } from "./cookies";

export interface RecordedCall {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

export const ADA = {
  id: 1,
  name: "Ada Lovelace",
  email: "ada@example.org",
  email_verified_at: "2026-11-21T08:33:21Z",
  role: "registered",
  scope: ["registered", "member"],
  has_password: true,
};

type Handler = (call: RecordedCall) => Response | Promise<Response> | undefined;

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

export function createFakeGoApi() {
  const calls: RecordedCall[] = [];
  /** session id → { csrf, user } */
  const sessions = new Map<string, { csrf: string; user: typeof ADA | null }>();
  let counter = 0;
  const overrides: Handler[] = [];

  function newSession(user: typeof ADA | null, csrf = `csrf${++counter}`) {
    const id = `sess${++counter}`;
    sessions.set(id, { csrf, user });
    return { id, csrf };
  }
  function setCookies(id: string, csrf: string): Headers {
    const h = new Headers({ "Content-Type": "application/json" });
    h.append("Set-Cookie", `lineage_session=${id}; Path=/; Max-Age=7200; HttpOnly; SameSite=Lax`);
    h.append("Set-Cookie", `XSRF-TOKEN=${csrf}; Path=/; Max-Age=7200; SameSite=Lax`);
    return h;
  }

  const fetchImpl = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    const call: RecordedCall = { method: init.method ?? "GET", path: url.pathname + url.search, headers, body };
    calls.push(call);
    for (const override of overrides) {
      const answer = await override(call);
      if (answer) return answer;
    }
    const jar = parseCookieHeader(headers.get("cookie"));
    const sid = jar.get("lineage_session");
    const session = sid ? sessions.get(sid) : undefined;
    const unsafe = call.method !== "GET";
    if (sid && unsafe && (!session || headers.get("x-xsrf-token") !== session.csrf)) {
      return json(419, { message: "CSRF token mismatch." });
    }
    const route = `${call.method} ${url.pathname}`;
    switch (route) {
      case "GET /sanctum/csrf-cookie": {
        if (session) return new Response(null, { status: 204, headers: setCookies(sid!, session.csrf) });
        const fresh = newSession(null);
        return new Response(null, { status: 204, headers: setCookies(fresh.id, fresh.csrf) });
      }
      case "POST /login": {
        if (!session) return json(419, { message: "CSRF token mismatch." });
        const { email, password } = body as { email: string; password: string };
        if (email !== ADA.email || password !== "correct horse") {
          return json(422, {
            message: "These credentials do not match our records.",
            errors: { email: ["These credentials do not match our records."] },
          });
        }
        sessions.delete(sid!);
        const fresh = newSession(ADA, session.csrf);
        return new Response(null, { status: 204, headers: setCookies(fresh.id, fresh.csrf) });
      }
      case "POST /logout": {
        if (!session?.user) return json(401, { message: "Unauthenticated." });
        sessions.delete(sid!);
        const fresh = newSession(null);
        return new Response(null, { status: 204, headers: setCookies(fresh.id, fresh.csrf) });
      }
      case "GET /api/user": {
        if (session?.user) return new Response(JSON.stringify(session.user), { status: 200, headers: setCookies(sid!, session.csrf) });
        const bearer = headers.get("authorization");
        if (bearer === "Bearer lat_good") return json(200, ADA);
        return json(401, { message: "Unauthenticated." });
      }
    }
    return json(404, { message: "Not Found" });
  };

  return {
    calls,
    sessions,
    fetch: fetchImpl as typeof fetch,
    /** Starts a session; returns the Cookie header a browser would send. */
    signedInCookie(user: typeof ADA | null = ADA): { cookie: string; csrf: string } {
      const s = newSession(user);
      return { cookie: `lineage_session=${s.id}; XSRF-TOKEN=${s.csrf}`, csrf: s.csrf };
    },
    /** Answers matching calls before the default behaviour. */
    override(handler: Handler) {
      overrides.push(handler);
    },
  };
}

export function silentLog() {
  const lines: string[] = [];
  return {
    lines,
    error: (...args: unknown[]) => void lines.push(args.map(String).join(" ")),
    warn: (...args: unknown[]) => void lines.push(args.map(String).join(" ")),
  };
}

export function pageRequest(path: string, headers: Record<string, string> = {}): Request {
  return new Request(`http://lineage.test${path}`, { headers });
}
