// What the research pages' tests share: the results heading's words and saving a search.

/** The results heading: "1 result", "12 results", "about 12,000 results" (en-GB digits). */
export const resultsText = (total, exact = true) => `${exact ? "" : "about "}${total.toLocaleString("en-GB")} result${total === 1 ? "" : "s"}`;

/** Saves the search the page shows under `name`, with the save form under its results. */
export async function saveSearch(page, name) {
  await page.getByLabel("Save this search as").fill(name);
  await page.getByRole("button", { name: "Save search" }).click();
  await page.getByText(`Saved the search as “${name}”.`, { exact: false }).waitFor();
}
