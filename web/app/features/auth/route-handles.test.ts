// Every route of app/routes.ts declares its access level on purpose: the default is
// "sign-in required", so a public page that forgets `handle.auth` would send its
// readers to the sign-in page. This test lists the routes that do require sign-in;
// adding one means adding it here.
import { describe, expect, it } from "vitest";
import routes from "../../routes";
import { accessLevelOf } from "./access";

interface ConfigEntry {
  path?: string;
  index?: boolean;
  file: string;
  children?: ConfigEntry[];
}

const SIGN_IN_REQUIRED = new Set([
  "routes/bookmarks.tsx",
  "routes/saved-searches.tsx",
  "routes/user-account.tsx",
  "routes/user-account.data.ts",
  "routes/user-account.delete.tsx",
  "routes/user-account.reading-list.tsx",
  "routes/user-account.trees.tsx",
  "routes/user-account.membership.tsx",
  "routes/user-account.newsletter.tsx",
  "routes/user-account.bookings.tsx",
  // Admins only: sign-in first, then the loader answers 404 to anyone else.
  "routes/admin.members.tsx",
  "routes/admin.member.tsx",
  "routes/admin.plans.tsx",
  "routes/admin.plan.tsx",
  // Editors and admins only: the loaders answer 404 to anyone else.
  "routes/admin.newsletter.tsx",
  "routes/admin.newsletter-edition.tsx",
  "routes/admin.newsletter-lists.tsx",
  // Editors and admins only, the same way.
  "routes/events-manage.tsx",
  // The studio's content screens, under its layout (models: admins, others 403).
  "routes/studio.home.tsx",
  "routes/studio.content.tsx",
  "routes/studio.content-lookup.ts",
  "routes/studio.content-document.tsx",
  "routes/studio.content-history.tsx",
  "routes/studio.releases.tsx",
  "routes/studio.release.tsx",
  "routes/studio.media.tsx",
  "routes/studio.models.tsx",
  "routes/studio.webhooks.tsx",
  // The studio: sign-in first, then its layout's loader refuses anyone not staff.
  "routes/studio.tsx",
  // The studio's staff tools, under its layout (people and audit: admins, others 404).
  "routes/studio.records.tsx",
  "routes/studio.records-upload.tsx",
  "routes/studio.job.tsx",
  "routes/studio.scans.tsx",
  "routes/studio.trees.tsx",
  "routes/studio.people.tsx",
  "routes/studio.audit.tsx",
]);
const GUEST_ONLY = new Set(["routes/sign-in.tsx", "routes/register.tsx", "routes/login-required.tsx"]);

function files(entries: ConfigEntry[]): string[] {
  return entries.flatMap((e) => [e.file, ...(e.children ? files(e.children) : [])]);
}

const modules = import.meta.glob<{ handle?: unknown }>("../../routes/*.{ts,tsx}");

describe("access level of every route", () => {
  const all = [...new Set(files(routes as unknown as ConfigEntry[]))];
  it.each(all)("%s", async (file) => {
    const load = modules[`../../${file}`];
    expect(load, `module of ${file}`).toBeDefined();
    const mod = await load!();
    const level = accessLevelOf([mod.handle]);
    const expected = SIGN_IN_REQUIRED.has(file) ? "required" : GUEST_ONLY.has(file) ? "guest" : "public";
    expect(level, `${file}: declare its handle.auth, or list it here if it needs sign-in`).toBe(expected);
  });
});
