// Browser-only enhancements of the search form, started after hydration: the live
// "See N results" from /api/research/count and the place suggestions from
// /api/research/places. Both are debounced and drop answers that arrive late.
import { useCallback, useEffect, useRef, useState } from "react";
import { apiParams, isSearch, readQuery } from "./query";
import type { ApiErrors, CountAnswer, Place } from "./types";

export const COUNT_DEBOUNCE_MS = 300;
export const PLACES_DEBOUNCE_MS = 200;

export type LiveCount =
  | { state: "idle" }
  | { state: "loading" }
  | { state: "done"; total: number; exact: boolean }
  | { state: "invalid"; errors: ApiErrors }
  | { state: "failed" };

/** The form's fields as the API's count parameters ("" when they make no search). */
export function countParams(form: HTMLFormElement): string {
  const fields = new URLSearchParams();
  for (const [key, value] of new FormData(form)) if (typeof value === "string") fields.append(key, value);
  const query = readQuery(fields);
  return isSearch(query) ? apiParams(query, { withPaging: false }).toString() : "";
}

/**
 * Counts what the form would find as the visitor changes it. `onChange` goes on the
 * form; the count starts only after a change (the page already shows the count of
 * the search it was loaded with).
 */
export function useLiveCount(): { count: LiveCount; changed: boolean; onChange: (form: HTMLFormElement) => void } {
  const [count, setCount] = useState<LiveCount>({ state: "idle" });
  const [changed, setChanged] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(0);
  const last = useRef<string | null>(null);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const onChange = useCallback((form: HTMLFormElement) => {
    setChanged(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(async () => {
      const params = countParams(form);
      if (params === last.current) return;
      last.current = params;
      const ticket = ++latest.current;
      if (!params) {
        setCount({ state: "idle" });
        return;
      }
      setCount({ state: "loading" });
      try {
        const response = await fetch(`/api/research/count?${params}`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        const body = (await response.json().catch(() => null)) as (CountAnswer & Partial<ApiErrors>) | null;
        if (ticket !== latest.current) return;
        if (response.ok && body) setCount({ state: "done", total: body.total, exact: body.total_exact });
        else if (response.status === 422 && body)
          setCount({ state: "invalid", errors: { message: body.message ?? "", errors: body.errors ?? {} } });
        else setCount({ state: "failed" });
      } catch {
        if (ticket === latest.current) setCount({ state: "failed" });
      }
    }, COUNT_DEBOUNCE_MS);
  }, []);

  return { count, changed, onChange };
}

/** Place suggestions for the text typed (at least two letters). */
export function usePlaceSuggestions(): { places: Place[]; onInput: (text: string) => void } {
  const [places, setPlaces] = useState<Place[]>([]);
  const timer = useRef<number | undefined>(undefined);
  const latest = useRef(0);

  useEffect(() => () => window.clearTimeout(timer.current), []);

  const onInput = useCallback((text: string) => {
    window.clearTimeout(timer.current);
    const q = text.trim();
    // A chosen suggestion is a full path ("Guildford, Surrey, England"): search by its first part.
    const name = q.split(",")[0]!.trim();
    if (name.length < 2 || /^\d+$/.test(name)) return;
    timer.current = window.setTimeout(async () => {
      const ticket = ++latest.current;
      try {
        const response = await fetch(`/api/research/places?${new URLSearchParams({ q: name })}`, { headers: { Accept: "application/json" } });
        const body = (await response.json().catch(() => null)) as { data?: Place[] } | null;
        if (ticket === latest.current && response.ok && Array.isArray(body?.data)) setPlaces(body.data);
      } catch {
        // Suggestions are a convenience: the field still works without them.
      }
    }, PLACES_DEBOUNCE_MS);
  }, []);

  return { places, onInput };
}
