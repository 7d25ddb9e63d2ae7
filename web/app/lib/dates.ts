// Dates as readers see them: "1 May 2024", in UK English. Formatting is done
// in UTC so the server and the browser print the same text.

const DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
const DATE_TIME = new Intl.DateTimeFormat("en-GB", {
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  timeZone: "Europe/London",
});

/** Parses a Prismic date ("2024-05-01") or timestamp ("2024-05-01T18:00:00+0000"). */
export function parseContentDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const iso = /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function formatDate(value: string | null | undefined): string | null {
  const date = parseContentDate(value);
  return date ? DATE.format(date) : null;
}

export function formatDateTime(value: string | null | undefined): string | null {
  const date = parseContentDate(value);
  return date ? DATE_TIME.format(date) : null;
}
