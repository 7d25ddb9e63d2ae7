// The home page's lecture video as a facade: nothing is requested from the video host
// until the visitor presses play (the page looks finished offline, and no third party
// hears of the visit); pressing play loads the host's player, which takes focus.
import { test } from "node:test";
import assert from "node:assert/strict";
import { setup } from "./harness.mjs";
import { demoDoc } from "./demo.mjs";

const ctx = setup({ name: "video" });

const home = demoDoc("home", "home");
const video = home.data.body.find((s) => s.slice_type === "video").primary;

test("the home page's video requests nothing from the host until played, then plays there with focus", async () => {
  const page = await ctx.newPage();
  const foreign = [];
  page.on("request", (r) => {
    if (new URL(r.url()).origin !== ctx.server.url) foreign.push(r.url());
  });
  // This machine is offline: the test plays the video host with a page of its own.
  await page.route("https://www.youtube-nocookie.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title><p>player</p>" }),
  );
  await ctx.visit(page, "/");
  await page.waitForLoadState("networkidle");
  assert.deepEqual(foreign, [], "no request leaves the site before play is pressed");
  const section = page.locator("section.slice--video");
  assert.equal(await section.locator("iframe").count(), 0, "no player before play is pressed");
  const play = section.getByRole("link", { name: `Play video: ${video.video.title}` });
  assert.equal(await play.getAttribute("href"), video.video.embed_url, "without JavaScript the button is a link to the video's page");
  await assert.doesNotReject(section.getByText("Plays from YouTube when you press play").waitFor());

  await play.focus();
  await page.keyboard.press("Enter");
  const frame = section.locator(`iframe[title="${video.title}"]`);
  await frame.waitFor();
  const src = new URL(await frame.getAttribute("src"));
  assert.equal(src.origin, "https://www.youtube-nocookie.com");
  assert.equal(src.searchParams.get("autoplay"), "1", "the player starts at once");
  await page.waitForFunction(() => document.activeElement?.tagName === "IFRAME");
  assert.ok(foreign.every((u) => u.startsWith("https://www.youtube-nocookie.com/")), `only the player's host is asked: ${foreign.join(", ")}`);
  assert.ok(foreign.length >= 1, "the player was requested once play was pressed");
});
