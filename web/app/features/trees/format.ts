// Words and numbers of the family-tree pages, and the graph answer mapped to the
// viewer's model (chart.ts).
import type { ChartGraph, ChartPerson } from "./chart";
import type { EventSummary, Graph, GraphDate, PersonSummary } from "./types";

const QUALIFIERS: Record<string, string> = { abt: "c. ", cal: "c. ", est: "c. ", bef: "before ", aft: "after " };

function graphYear(d: GraphDate | undefined): string {
  if (!d?.year) return "";
  return `${d.qualifier ? (QUALIFIERS[d.qualifier] ?? "") : ""}${d.year}`;
}

/** "1851–1919", "b. 1851", "d. 1919", or "" (the living, the undated). */
export function lifeSpan(birth: string, death: string): string {
  if (birth && death) return `${birth}–${death}`;
  if (birth) return `b. ${birth}`;
  if (death) return `d. ${death}`;
  return "";
}

/** The life span of a person summary (from the dates' middle years). */
export function summaryYears(p: Pick<PersonSummary, "living" | "birth" | "death">): string {
  if (p.living) return "";
  const y = (e: EventSummary | null | undefined) => (e?.date?.year ? String(e.date.year) : "");
  return lifeSpan(y(p.birth), y(p.death));
}

/** The graph endpoint's answer as the viewer's model. */
export function chartGraphFrom(graph: Graph): ChartGraph {
  const people: ChartPerson[] = graph.indis.map((i) => {
    const name = i.name?.trim() || [i.firstName, i.lastName].filter(Boolean).join(" ").trim() || "(unknown)";
    const living = Boolean(i.living);
    const sex = i.sex === "M" || i.sex === "F" ? i.sex : "U";
    return {
      id: i.id,
      name,
      living,
      sex,
      years: living ? "" : lifeSpan(graphYear(i.birth?.date), graphYear(i.death?.date)),
      famc: i.famc,
    };
  });
  const families = graph.fams.map((f) => ({
    id: f.id,
    partners: [f.husb, f.wife].filter((p): p is string => Boolean(p)),
    children: f.children ?? [],
  }));
  return { root: graph.start, people, families };
}

/** "12 MAR 1851" → "12 Mar 1851"; GEDCOM's words made readable (ABT → about…). */
export function dateText(text: string | undefined | null): string {
  if (!text) return "";
  const words: Record<string, string> = {
    ABT: "about",
    CAL: "calculated",
    EST: "estimated",
    BEF: "before",
    AFT: "after",
    BET: "between",
    AND: "and",
    FROM: "from",
    TO: "to",
    INT: "interpreted",
  };
  const months = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];
  return text
    .split(/\s+/)
    .map((w) => {
      const up = w.toUpperCase();
      if (words[up]) return words[up];
      if (months.includes(up)) return up[0] + up.slice(1).toLowerCase();
      return w;
    })
    .join(" ");
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;
}
