// The tree viewer's model, with no React and no DOM: the people and families of one
// graph answer, laid out as a pedigree (ancestors above the person), a descendants
// chart (descendants below, partners beside), or an hourglass (both), plus the nested
// list that says the same thing in words. Positions are in grid units: x is a box's
// centre in box widths, row is the generation (negative above the person).
import type { ChartKind } from "./slug";

export interface ChartPerson {
  id: string;
  name: string;
  living: boolean;
  sex?: "M" | "F" | "U";
  /** A short life span such as "1820–1891" (empty for the living and the undated). */
  years?: string;
  /** The family the person is a child of, when they have several (birth family first). */
  famc?: string;
}

export interface ChartFamily {
  id: string;
  /** Partners, husband first when the file says so. */
  partners: string[];
  children: string[];
}

export interface ChartGraph {
  root: string;
  people: ChartPerson[];
  families: ChartFamily[];
}

export type NodeRole = "root" | "ancestor" | "descendant" | "partner";

export interface ChartNode {
  /** Unique within a layout (a person may appear twice, as in pedigree collapse). */
  key: string;
  person: string;
  x: number;
  row: number;
  role: NodeRole;
  /** The node this one hangs from in the list view (null for the root). */
  from: string | null;
  /** Its relation to `from`: Father, Mother, Parent, Partner, Son, Daughter, Child. */
  relation: string | null;
  /** Keys of the nodes of its parents shown in the chart (father first). */
  up: string[];
  /** Keys of the nodes of its children shown in the chart. */
  down: string[];
}

/** A connector from the bottom of an upper box to the top of a lower one, bent at mid-row. */
export interface ChartEdge {
  upperX: number;
  upperRow: number;
  lowerX: number;
  lowerRow: number;
}

export interface ChartLayout {
  kind: ChartKind;
  root: string;
  nodes: ChartNode[];
  edges: ChartEdge[];
  /** Columns and rows used: x runs 0…columns-1 (centres at 0.5…), row minRow…maxRow. */
  columns: number;
  minRow: number;
  maxRow: number;
}

/** Fast lookups over a graph: people by id, families by child and by partner. */
export class GraphIndex {
  readonly people = new Map<string, ChartPerson>();
  private readonly childIn = new Map<string, ChartFamily>();
  private readonly partnerIn = new Map<string, ChartFamily[]>();

  constructor(readonly graph: ChartGraph) {
    for (const p of graph.people) this.people.set(p.id, p);
    const byId = new Map(graph.families.map((f) => [f.id, f]));
    for (const p of graph.people) {
      const f = p.famc ? byId.get(p.famc) : undefined;
      if (f?.children.includes(p.id)) this.childIn.set(p.id, f);
    }
    for (const f of graph.families) {
      for (const c of f.children) if (!this.childIn.has(c)) this.childIn.set(c, f);
      for (const p of f.partners) {
        const list = this.partnerIn.get(p) ?? [];
        list.push(f);
        this.partnerIn.set(p, list);
      }
    }
  }

  person(id: string): ChartPerson | undefined {
    return this.people.get(id);
  }

  /** Known parents (father first, then mother, then others), only those in the graph. */
  parents(id: string): string[] {
    const fam = this.childIn.get(id);
    if (!fam) return [];
    const present = fam.partners.filter((p) => this.people.has(p));
    const rank = (p: string) => {
      const sex = this.people.get(p)?.sex;
      return sex === "M" ? 0 : sex === "F" ? 1 : 2;
    };
    return [...present].sort((a, b) => rank(a) - rank(b));
  }

  /** Families in which the person is a partner, in the graph's order. */
  families(id: string): ChartFamily[] {
    return this.partnerIn.get(id) ?? [];
  }
}

function parentRelation(sex: ChartPerson["sex"]): string {
  return sex === "M" ? "Father" : sex === "F" ? "Mother" : "Parent";
}

function childRelation(sex: ChartPerson["sex"]): string {
  return sex === "M" ? "Son" : sex === "F" ? "Daughter" : "Child";
}

/** Ancestors of the root in `generations` rows (the root's own row included), rows 0, -1, -2… */
function ancestors(ix: GraphIndex, root: string, generations: number) {
  const nodes: ChartNode[] = [];
  const edges: ChartEdge[] = [];
  let next = 0;
  const place = (person: string, depth: number, key: string, from: string | null, relation: string | null): ChartNode => {
    const node: ChartNode = { key, person, x: 0, row: depth === 0 ? 0 : -depth, role: depth === 0 ? "root" : "ancestor", from, relation, up: [], down: from ? [from] : [] };
    nodes.push(node);
    const parents = depth + 1 < generations ? ix.parents(person) : [];
    if (parents.length === 0) {
      node.x = next + 0.5;
      next += 1;
      return node;
    }
    const placed = parents.map((p, i) =>
      place(p, depth + 1, `${key}.${i === 0 ? "f" : i === 1 ? "m" : `p${i}`}`, key, parentRelation(ix.person(p)?.sex)),
    );
    node.up = placed.map((p) => p.key);
    node.x = (placed[0].x + placed[placed.length - 1].x) / 2;
    for (const p of placed) edges.push({ upperX: p.x, upperRow: p.row, lowerX: node.x, lowerRow: node.row });
    return node;
  };
  place(root, 0, "root", null, null);
  return { nodes, edges, columns: next };
}

/** Descendants of the root in `generations` rows, rows 0, 1, 2…, partners beside each person. */
function descendants(ix: GraphIndex, root: string, generations: number) {
  const nodes: ChartNode[] = [];
  const edges: ChartEdge[] = [];
  const widths = new Map<string, number>();

  // Families shown under a person at a depth, with the partner (if in the graph).
  const familiesOf = (person: string) =>
    ix.families(person).map((f) => ({
      family: f,
      partner: f.partners.find((p) => p !== person && ix.people.has(p)) ?? null,
      children: f.children.filter((c) => ix.people.has(c)),
    }));

  const width = (person: string, depth: number, key: string): number => {
    const fams = familiesOf(person);
    const block = 1 + fams.filter((f) => f.partner).length;
    let kids = 0;
    if (depth + 1 < generations) {
      fams.forEach((f, fi) => f.children.forEach((c, ci) => (kids += width(c, depth + 1, `${key}.c${fi}-${ci}`))));
    }
    const w = Math.max(block, kids);
    widths.set(key, w);
    return w;
  };

  const place = (person: string, depth: number, key: string, start: number, from: string | null, relation: string | null, up: string[]): ChartNode => {
    const w = widths.get(key)!;
    const fams = familiesOf(person);
    const block = 1 + fams.filter((f) => f.partner).length;
    const self: ChartNode = { key, person, x: start + (w - block) / 2 + 0.5, row: depth, role: depth === 0 ? "root" : "descendant", from, relation, up, down: [] };
    nodes.push(self);
    const showKids = depth + 1 < generations;
    let kidsWidth = 0;
    if (showKids) fams.forEach((f, fi) => f.children.forEach((_, ci) => (kidsWidth += widths.get(`${key}.c${fi}-${ci}`)!)));
    let cursor = start + (w - kidsWidth) / 2;
    let partnerIndex = 0;
    fams.forEach((f, fi) => {
      let hub = self;
      let upperX = self.x;
      if (f.partner) {
        partnerIndex += 1;
        const partner: ChartNode = {
          key: `${key}.p${fi}`,
          person: f.partner,
          x: self.x + partnerIndex,
          row: depth,
          role: "partner",
          from: key,
          relation: "Partner",
          up: [],
          down: [],
        };
        nodes.push(partner);
        hub = partner;
        upperX = self.x + partnerIndex - 0.5;
      }
      if (!showKids) return;
      f.children.forEach((c, ci) => {
        const childKey = `${key}.c${fi}-${ci}`;
        const parentsShown = hub === self ? [key] : [key, hub.key];
        const child = place(c, depth + 1, childKey, cursor, hub.key, childRelation(ix.person(c)?.sex), parentsShown);
        cursor += widths.get(childKey)!;
        self.down.push(child.key);
        if (hub !== self) hub.down.push(child.key);
        edges.push({ upperX, upperRow: depth, lowerX: child.x, lowerRow: child.row });
      });
    });
    return self;
  };

  const total = width(root, 0, "root");
  place(root, 0, "root", 0, null, null, []);
  return { nodes, edges, columns: total };
}

/** Lays out the graph as the chart kind asks, at most `generations` rows deep each way. */
export function layoutChart(graph: ChartGraph, kind: ChartKind, generations: number): ChartLayout {
  const ix = new GraphIndex(graph);
  const g = Math.max(1, Math.floor(generations));
  let nodes: ChartNode[];
  let edges: ChartEdge[];
  if (!ix.people.has(graph.root)) {
    nodes = [];
    edges = [];
  } else if (kind === "pedigree") {
    ({ nodes, edges } = ancestors(ix, graph.root, g));
  } else if (kind === "descendants") {
    ({ nodes, edges } = descendants(ix, graph.root, g));
  } else {
    const up = ancestors(ix, graph.root, g);
    const down = descendants(ix, graph.root, g);
    const upRoot = up.nodes.find((n) => n.key === "root")!;
    const downRoot = down.nodes.find((n) => n.key === "root")!;
    const shift = downRoot.x - upRoot.x;
    for (const n of up.nodes) n.x += shift;
    for (const e of up.edges) {
      e.upperX += shift;
      e.lowerX += shift;
    }
    downRoot.up = upRoot.up;
    nodes = [...up.nodes.filter((n) => n.key !== "root"), ...down.nodes];
    edges = [...up.edges, ...down.edges];
  }
  // Shift so the leftmost box starts at 0.
  const minX = nodes.length ? Math.min(...nodes.map((n) => n.x)) - 0.5 : 0;
  for (const n of nodes) n.x -= minX;
  for (const e of edges) {
    e.upperX -= minX;
    e.lowerX -= minX;
  }
  const maxX = nodes.length ? Math.max(...nodes.map((n) => n.x)) + 0.5 : 0;
  return {
    kind,
    root: graph.root,
    nodes,
    edges,
    columns: maxX,
    minRow: nodes.length ? Math.min(...nodes.map((n) => n.row)) : 0,
    maxRow: nodes.length ? Math.max(...nodes.map((n) => n.row)) : 0,
  };
}

export interface ListItem {
  key: string;
  person: string;
  relation: string | null;
  items: ListItem[];
}

export interface ListSection {
  title: string;
  item: ListItem;
}

/**
 * The chart as nested lists: each person with the people hanging from them (parents
 * above in a pedigree; partners, and children under the partner they were had with, in
 * descendants). An hourglass gives two sections, ancestors and descendants.
 */
export function listModel(layout: ChartLayout): ListSection[] {
  const root = layout.nodes.find((n) => n.key === "root");
  if (!root) return [];
  const ancestorsOf = (key: string): ListItem[] =>
    layout.nodes.filter((n) => n.from === key && n.role === "ancestor").map((n) => ({ key: n.key, person: n.person, relation: n.relation, items: ancestorsOf(n.key) }));
  const descendantsOf = (key: string): ListItem[] =>
    layout.nodes
      .filter((n) => n.from === key && (n.role === "descendant" || n.role === "partner"))
      .map((n) => ({ key: n.key, person: n.person, relation: n.relation, items: descendantsOf(n.key) }));
  const up = { title: "Ancestors", item: { key: root.key, person: root.person, relation: null, items: ancestorsOf(root.key) } };
  const down = { title: "Descendants", item: { key: root.key, person: root.person, relation: null, items: descendantsOf(root.key) } };
  if (layout.kind === "pedigree") return [up];
  if (layout.kind === "descendants") return [down];
  return [up, down];
}

/** The drawn extent of a chart, in chart units. */
export interface ChartBounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** How "Show the whole chart" draws it in a frame of `frameW` × `frameH` pixels. */
export interface WholeView {
  /** Scale and offset of the chart in the frame (or in the scrolled canvas). */
  k: number;
  x: number;
  y: number;
  /**
   * null when the whole chart fits at a legible scale; otherwise the size of the canvas
   * the frame scrolls over, with the chart drawn at the legible minimum.
   */
  scroll: { width: number; height: number } | null;
}

/**
 * The whole chart in the frame: shrunk until all of it fits (never enlarged), but never
 * below `legible` — past that, drawn at `legible` on a canvas the frame scrolls over, so
 * the text stays readable and nothing is cut off on either side.
 */
export function wholeChartView(b: ChartBounds, frameW: number, frameH: number, legible: number, margin = 16): WholeView {
  const w = Math.max(1, b.right - b.left);
  const h = Math.max(1, b.bottom - b.top);
  const fits = Math.min(1, (frameW - 2 * margin) / w, (frameH - 2 * margin) / h);
  if (fits >= legible) {
    return { k: fits, x: (frameW - w * fits) / 2 - b.left * fits, y: (frameH - h * fits) / 2 - b.top * fits, scroll: null };
  }
  const k = legible;
  const width = Math.max(frameW, w * k + 2 * margin);
  const height = Math.max(frameH, h * k + 2 * margin);
  return { k, x: (width - w * k) / 2 - b.left * k, y: (height - h * k) / 2 - b.top * k, scroll: { width, height } };
}
