// The events area: the list without JavaScript (upcoming soonest first, then past most
// recent first), the GET filter form with and without JavaScript, the month calendar and
// its navigation, an event page, the join page, and the iCalendar feeds. Expected events
// come from demo/content and the real clock, as the server sees them. axe checks every
// page visited, also those reached by a form submission or a click.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { assertDocumentShell, checkA11y, setup } from "./harness.mjs";
import { asText, demoByType, demoDoc, firstBodyParagraph, titleOf } from "./demo.mjs";

const ctx = setup({ name: "events" });
const NOT_FOUND = "This page could not be found";

/** Prismic timestamp ("2026-12-02T19:00:00+0000") → epoch ms. */
const instant = (ts) => Date.parse(ts.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
const endOf = (doc) => instant(doc.data.end ?? doc.data.start);

const now = Date.now();
const events = demoByType("event");
const upcoming = events.filter((d) => endOf(d) > now).sort((a, b) => instant(a.data.start) - instant(b.data.start));
const past = events.filter((d) => endOf(d) <= now).sort((a, b) => instant(b.data.start) - instant(a.data.start));

const LONDON_MONTH = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", year: "numeric", month: "2-digit" });
/** "2026-12": the London month of a timestamp. */
function londonMonth(ts) {
  const parts = Object.fromEntries(LONDON_MONTH.formatToParts(new Date(instant(ts))).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}`;
}
const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const monthLabel = (ym) => `${MONTH_NAMES[Number(ym.slice(5)) - 1]} ${ym.slice(0, 4)}`;
function addMonths(ym, n) {
  const i = Number(ym.slice(0, 4)) * 12 + Number(ym.slice(5)) - 1 + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;
}

/** The event to look at closely: the next one, else the latest. */
const featured = upcoming[0] ?? past[0];
/** A month with events and the demo events in it. */
const month = londonMonth(featured.data.start);
const inMonth = events.filter((d) => londonMonth(d.data.start) === month);
const firstMonth = events.map((d) => londonMonth(d.data.start)).sort()[0];

const cardTitles = (section) => section.locator(".card__title").allTextContents().then((t) => t.map((s) => s.trim()));
const normalise = (s) => s.replace(/\s+/g, " ").trim();

describe("the events list", () => {
  test("/sog-events renders without JavaScript: upcoming soonest first, then past most recent first", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/sog-events");
    await assertDocumentShell(page, ctx.server, "/sog-events");
    assert.deepEqual((await page.locator("h1").allTextContents()).map((t) => t.trim()), ["Events"]);

    assert.deepEqual(await cardTitles(page.locator("#upcoming")), upcoming.map(titleOf), "upcoming events, soonest first");
    assert.deepEqual(await cardTitles(page.locator("#past")), past.slice(0, 10).map(titleOf), "past events, most recent first");
    for (const doc of [...upcoming, ...past.slice(0, 10)]) {
      assert.equal(await page.locator(`main .card__title a[href="/sog-events/${doc.uid}"]`).count(), 1, `a link to ${doc.uid}`);
    }
    // Each card says when, in <time> elements whose instants are the event's.
    const first = page.locator("#upcoming .card, #past .card").first();
    const firstDoc = upcoming[0] ?? past[0];
    const datetime = await first.locator("time").first().getAttribute("datetime");
    assert.match(datetime, /T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/, "London time with its offset");
    assert.equal(Date.parse(datetime), instant(firstDoc.data.start), "the start instant");

    assert.equal(
      await page.locator('head link[rel="alternate"][type="text/calendar"]').getAttribute("href"),
      "/feeds/events.ics",
      "the page advertises the iCalendar feed",
    );
    assert.equal(await page.locator('main a[href="/sog-events/join"]').count() > 0, true, "a link to the join page");
    // The filter form is a plain GET form with labelled fields.
    const form = page.locator("main form[role=search]");
    assert.equal(await form.getAttribute("method"), "get");
    assert.equal(await form.getAttribute("action"), "/sog-events");
    for (const id of ["event-filter-q", "event-filter-month"]) {
      assert.equal(await page.locator(`label[for="${id}"]`).count(), 1, `a label for #${id}`);
    }
    assert.equal(await form.locator("fieldset legend").count(), 1, "the attendance radios have a legend");
  });

  test("filtering by month narrows the list (plain GET form, no JavaScript)", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/sog-events");
    await page.selectOption("#event-filter-month", month);
    await Promise.all([page.waitForURL((u) => u.searchParams.get("month") === month), page.getByRole("button", { name: "Show events" }).click()]);
    await checkA11y(page, `/sog-events?month=${month} (after submitting the form)`);
    const shown = [...(await cardTitles(page.locator("#upcoming"))), ...(await cardTitles(page.locator("#past")))];
    assert.deepEqual(shown.sort(), inMonth.map(titleOf).sort(), `only the events of ${month}`);
    assert.ok(shown.length < events.length, "fewer events than unfiltered");
    assert.equal(await page.locator("#event-filter-month").inputValue(), month, "the form shows the chosen month");
    assert.match(normalise(await page.locator("main .event-results").textContent()), new RegExp(`in ${monthLabel(month)}`));
    assert.equal((await page.locator("h1").textContent()).trim(), `Events in ${monthLabel(month)}`);
    assert.equal((await page.locator("main .event-calendar caption").textContent()).startsWith(monthLabel(month)), true);
  });

  test("filtering online and by title, with JavaScript and the keyboard", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, "/sog-events");
    await page.waitForFunction(() => {
      const f = document.querySelector("main form[role=search]");
      return f && Object.keys(f).some((k) => k.startsWith("__reactFiber") || k.startsWith("__reactProps"));
    });
    await page.evaluate(() => {
      window.__marker = "no reload";
    });
    const online = events.filter((d) => /online/i.test(d.data.location ?? ""));
    assert.ok(online.length > 0 && online.length < events.length, "demo has online and in-person events");
    await page.locator('input[name="attendance"][value="online"]').check();
    await page.locator("#event-filter-q").focus();
    const word = titleOf(online[0]).split(/\s+/).find((w) => w.length > 3 && /^[A-Za-z]+$/.test(w));
    await page.keyboard.type(word);
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.searchParams.get("attendance") === "online" && u.searchParams.get("q") === word);
    await page.locator("main .event-results", { hasText: word }).waitFor();
    assert.equal(await page.evaluate(() => window.__marker), "no reload", "submitted as a client-side navigation");
    await checkA11y(page, `/sog-events?attendance=online&q=${word} (after a client-side submission)`);
    const shown = [...(await cardTitles(page.locator("#upcoming"))), ...(await cardTitles(page.locator("#past")))];
    const expected = online.filter((d) => titleOf(d).toLowerCase().includes(word.toLowerCase())).map(titleOf);
    assert.deepEqual(shown.sort(), expected.sort(), `online events with "${word}" in the title`);

    // "Clear filters" goes back to everything.
    await page.locator("main a", { hasText: "Clear filters" }).click();
    await page.waitForURL(ctx.server.at("/sog-events"));
    await page.locator("main .event-results", { hasText: `${events.length} events` }).waitFor();
    assert.equal(await page.locator('input[name="attendance"][value=""]').isChecked(), true, "the form is reset");
  });

  test("malformed filters are a 404", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/sog-events?month=2026-13", { status: 404 });
    assert.equal((await page.locator("h1").textContent()).trim(), NOT_FOUND);
    await ctx.visit(page, "/sog-events?attendance=hybrid", { status: 404 });
    await ctx.visit(page, "/sog-events?page=99", { status: 404 });
  });
});

describe("the calendar", () => {
  test("a month grid with headers, event days linking to events, and previous/next months", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, `/sog-events?month=${month}`);
    const table = page.locator("main table.event-calendar__table");
    assert.equal(await table.count(), 1);
    assert.match(normalise(await table.locator("caption").textContent()), new RegExp(`^${monthLabel(month)}`));
    const headers = await table.locator("thead th[scope=col]").allTextContents();
    assert.deepEqual(headers, ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]);
    for (const row of await table.locator("tbody tr").all()) assert.equal(await row.locator("td").count(), 7, "seven days a week");
    for (const doc of inMonth) {
      const day = Number(
        new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric" }).format(new Date(instant(doc.data.start))),
      );
      const cell = table.locator("td", { has: page.locator(`time[datetime="${month}-${String(day).padStart(2, "0")}"]`) });
      assert.equal(await cell.locator(`a[href="/sog-events/${doc.uid}"]`).count(), 1, `${doc.uid} on day ${day}`);
    }

    // Next month, then back twice, by following the links as a reader would.
    const nav = page.locator('main nav[aria-label="Calendar months"]');
    await Promise.all([page.waitForURL((u) => u.searchParams.get("month") === addMonths(month, 1)), nav.locator("a[rel=next]").click()]);
    await checkA11y(page, `/sog-events?month=${addMonths(month, 1)}`);
    assert.match(normalise(await page.locator("main table caption").textContent()), new RegExp(`^${monthLabel(addMonths(month, 1))}`));
    assert.equal(new URL(page.url()).hash, "#calendar", "month links land on the calendar");
    for (const n of [0, -1]) {
      await Promise.all([
        page.waitForURL((u) => u.searchParams.get("month") === addMonths(month, n)),
        page.locator('main nav[aria-label="Calendar months"] a[rel=prev]').click(),
      ]);
      await checkA11y(page, `/sog-events?month=${addMonths(month, n)}`);
      assert.match(normalise(await page.locator("main table caption").textContent()), new RegExp(`^${monthLabel(addMonths(month, n))}`));
    }
  });

  test("navigation ends at the first event's month", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, `/sog-events?month=${firstMonth}`);
    const nav = page.locator('main nav[aria-label="Calendar months"]');
    assert.equal(await nav.locator("a[rel=prev]").count(), 0, "no month before the first event");
    assert.equal(await nav.locator("a[rel=next]").count(), 1);
  });

  test("with JavaScript the month links navigate in the browser", async () => {
    const page = await ctx.newPage();
    await ctx.visit(page, `/sog-events?month=${month}`);
    await page.waitForFunction(() => {
      const a = document.querySelector('main nav[aria-label="Calendar months"] a[rel=next]');
      return a && Object.keys(a).some((k) => k.startsWith("__reactFiber") || k.startsWith("__reactProps"));
    });
    await page.evaluate(() => {
      window.__marker = "no reload";
    });
    await page.locator('main nav[aria-label="Calendar months"] a[rel=next]').click();
    await page.locator("main table caption", { hasText: monthLabel(addMonths(month, 1)) }).waitFor();
    assert.equal(await page.evaluate(() => window.__marker), "no reload");
    await checkA11y(page, `/sog-events?month=${addMonths(month, 1)} (after client navigation)`);
  });
});

describe("an event", () => {
  test(`/sog-events/${featured.uid} renders without JavaScript`, async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    const path = `/sog-events/${featured.uid}`;
    await ctx.visit(page, path);
    await assertDocumentShell(page, ctx.server, path);
    assert.deepEqual((await page.locator("h1").allTextContents()).map((t) => t.trim()), [titleOf(featured)]);
    assert.ok((await page.title()).includes(titleOf(featured)));
    const main = page.locator("main");
    const text = normalise(await main.textContent());
    for (const expected of [asText(featured.data.summary), featured.data.location, firstBodyParagraph(featured)].filter(Boolean)) {
      assert.ok(text.includes(normalise(expected)), `shows "${expected}"`);
    }
    const times = await main.locator(".event-facts time").evaluateAll((els) => els.map((e) => e.getAttribute("datetime")));
    assert.equal(times.length, 2, "start and end");
    assert.equal(Date.parse(times[0]), instant(featured.data.start), "start instant");
    assert.equal(Date.parse(times[1]), instant(featured.data.end), "end instant");
    for (const t of times) assert.match(t, /[+-]\d{2}:\d{2}$/, "with the London offset");
    if (featured === upcoming[0]) {
      const add = main.locator("a", { hasText: "Add to calendar" });
      assert.equal(await add.getAttribute("href"), `/feeds/events/${featured.uid}.ics`);
      const ics = await fetch(ctx.server.at(`/feeds/events/${featured.uid}.ics`));
      assert.equal(ics.status, 200);
      assert.match(ics.headers.get("content-type") ?? "", /^text\/calendar/);
      const body = await ics.text();
      assert.equal(body.match(/^BEGIN:VEVENT\r$/gm)?.length, 1, "one VEVENT");
      assert.match(body, new RegExp(`^UID:${featured.id}@127\\.0\\.0\\.1\\r$`, "m"));
    }
    const calendars = await page
      .locator('head link[rel="alternate"][type="text/calendar"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    assert.ok(calendars.includes(`/feeds/events/${featured.uid}.ics`), `the page advertises its own .ics (${calendars})`);
  });

  test("an unknown event is 404", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/sog-events/no-such-event", { status: 404 });
    assert.equal((await page.locator("h1").textContent()).trim(), NOT_FOUND);
    const ics = await fetch(ctx.server.at("/feeds/events/no-such-event.ics"));
    assert.equal(ics.status, 404);
  });

  test("the home page's event cards link to their pages", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/");
    const links = await page
      .locator('main section[aria-labelledby="home-events"] .card__title a')
      .evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    // The home page shows events that have not started yet, soonest first.
    const notStarted = upcoming.filter((d) => instant(d.data.start) > Date.now());
    assert.deepEqual(links, notStarted.slice(0, 3).map((d) => `/sog-events/${d.uid}`));
    for (const href of links) assert.equal((await fetch(ctx.server.at(href))).status, 200, href);
  });
});

describe("joining", () => {
  test("/sog-events/join shows the sog-events-join page", async () => {
    const join = demoDoc("sog-events-join", "page");
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await ctx.visit(page, "/sog-events/join");
    await assertDocumentShell(page, ctx.server, "/sog-events/join");
    assert.deepEqual((await page.locator("h1").allTextContents()).map((t) => t.trim()), [titleOf(join)]);
    const text = normalise(await page.locator("main").textContent());
    assert.ok(text.includes(normalise(firstBodyParagraph(join))), "its body");
    assert.equal(await page.locator('main nav[aria-label="Breadcrumb"] a[href="/sog-events"]').count(), 1, "breadcrumb to Events");
    // The page has one address: its generic path is not a page.
    await ctx.visit(page, "/sog-events-join", { status: 404 });
  });
});

describe("iCalendar", () => {
  test("/feeds/events.ics is RFC 5545: CRLF, folded lines, one VEVENT per upcoming event", async () => {
    const res = await fetch(ctx.server.at("/feeds/events.ics"));
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^text\/calendar; charset=utf-8/);
    const body = await res.text();
    assert.ok(body.startsWith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"), "BEGIN:VCALENDAR, VERSION first");
    assert.ok(body.endsWith("END:VCALENDAR\r\n"));
    assert.doesNotMatch(body.replace(/\r\n/g, ""), /[\r\n]/, "every line ends in CRLF");
    for (const line of body.split("\r\n")) {
      assert.ok(Buffer.byteLength(line, "utf8") <= 75, `at most 75 octets: ${line}`);
    }
    const unfolded = body.replace(/\r\n[ \t]/g, "");
    const vevents = unfolded.split("BEGIN:VEVENT\r\n").slice(1).map((v) => v.split("END:VEVENT")[0]);
    assert.equal(vevents.length, upcoming.length, "one VEVENT per upcoming event");
    const prop = (v, name) => v.match(new RegExp(`^${name}(?:;[^:]*)?:(.*)\\r$`, "m"))?.[1];
    const utc = (ts) => new Date(instant(ts)).toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
    const escape = (s) => s.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\n/g, "\\n");
    for (const [i, doc] of upcoming.entries()) {
      const v = vevents[i];
      assert.equal(prop(v, "UID"), `${doc.id}@127.0.0.1`);
      assert.match(prop(v, "DTSTAMP"), /^\d{8}T\d{6}Z$/);
      assert.equal(prop(v, "DTSTART"), utc(doc.data.start));
      assert.equal(prop(v, "DTEND"), utc(doc.data.end));
      assert.equal(prop(v, "SUMMARY"), escape(titleOf(doc)));
      assert.equal(prop(v, "LOCATION"), escape(doc.data.location));
      assert.ok(prop(v, "DESCRIPTION")?.startsWith(escape(asText(doc.data.summary))), "DESCRIPTION starts with the summary");
      assert.equal(prop(v, "URL"), ctx.server.at(`/sog-events/${doc.uid}`));
    }
  });

  test("the sitemap lists the events area", async () => {
    const xml = await (await fetch(ctx.server.at("/sitemap.xml"))).text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
    for (const p of ["/sog-events", "/sog-events/join", ...events.map((d) => `/sog-events/${d.uid}`)]) {
      assert.ok(locs.includes(p), `sitemap lists ${p}`);
    }
    assert.ok(!locs.includes("/sog-events-join"), "not the join page's generic path");
  });
});
