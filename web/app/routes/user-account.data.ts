// /user-account/data (sign-in required): "download my data" — the Go API's export
// of everything the account holds, as one JSON file.
import type { Route } from "./+types/user-account.data";
import { getAuth } from "../features/auth/context";

export async function loader({ context }: Route.LoaderArgs) {
  const response = await getAuth(context).request("GET", "/api/user/data");
  if (response.status !== 200) {
    console.error(`[members] GET /api/user/data answered ${response.status}`);
    throw new Response("Your data could not be exported just now. Please try again later.", { status: 503 });
  }
  return new Response(`${JSON.stringify(response.body, null, 2)}\n`, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="lineage-my-data.json"',
      "Cache-Control": "private, no-store",
    },
  });
}
