// The home page's lecture video as a facade: nothing is requested from the video host
// until the visitor presses play (the page looks finished offline, and no third party
// hears of the visit); pressing play loads the host's player, which takes focus. The
// same play button on a page that hydrates, before and after a client-side navigation.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkA11y, setup, waitForHydration } from "./harness.mjs";
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
  assert.equal(await section.getByRole("link", { name: /^Play video/ }).isVisible(), false, "the player alone, in the poster's place");
  await checkA11y(page, "/ (video playing)");
});

test("on a page that hydrates, the play button plays in place, also after a client-side navigation there", async () => {
  const education = demoDoc("education", "page");
  const talk = education.data.body.find((s) => s.slice_type === "video").primary;
  const page = await ctx.newPage();
  await page.route("https://www.youtube-nocookie.com/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title><p>player</p>" }),
  );
  await ctx.visit(page, "/news");
  await waitForHydration(page);
  await page.evaluate(() => (window.__sameDocument = true));
  const educationLink = page.locator("header nav").getByRole("link", { name: "Education", exact: true });
  await educationLink.click();
  await page.waitForURL("**/education");
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "a client-side navigation");
  const section = page.locator("section.slice--video");
  await section.getByRole("link", { name: /^Play video/ }).click();
  const frame = section.locator(`iframe[title="${talk.title}"]`);
  await frame.waitFor();
  assert.equal(new URL(await frame.getAttribute("src")).searchParams.get("autoplay"), "1");
  await page.waitForFunction(() => document.activeElement?.tagName === "IFRAME");
  await checkA11y(page, "/education (video playing)");
  // React still owns the page: leaving it and coming back works, with the poster again.
  await page.locator("header nav").getByRole("link", { name: "News", exact: true }).click();
  await page.waitForURL("**/news");
  await educationLink.click();
  await page.waitForURL("**/education");
  await section.getByRole("link", { name: /^Play video/ }).waitFor();
  assert.equal(await section.locator("iframe").count(), 0, "a fresh facade");
  assert.equal(await page.evaluate(() => window.__sameDocument), true, "still the same document");
});
