// The viewer's keyboard model: which node an arrow key moves to. Up goes to a parent
// (the father first), Down to a child (the one on the way back to the chart's person
// when that one is shown), Left and Right to the next box in the same generation
// (partners sit beside each other), Home to the chart's person. Enter opens the
// person's page and Space (or a click) moves the chart to them: those two are actions,
// not moves, and the component handles them.
import type { ChartLayout, ChartNode } from "./chart";

export type Move = "up" | "down" | "left" | "right" | "home";

const KEYS: Record<string, Move> = {
  ArrowUp: "up",
  ArrowDown: "down",
  ArrowLeft: "left",
  ArrowRight: "right",
  Home: "home",
};

/** The move a key asks for, or null for any other key. */
export function moveForKey(key: string): Move | null {
  return KEYS[key] ?? null;
}

export class ChartNavigator {
  private readonly byKey = new Map<string, ChartNode>();
  private readonly rows = new Map<number, ChartNode[]>();

  constructor(readonly layout: ChartLayout) {
    for (const n of layout.nodes) {
      this.byKey.set(n.key, n);
      const row = this.rows.get(n.row) ?? [];
      row.push(n);
      this.rows.set(n.row, row);
    }
    for (const row of this.rows.values()) row.sort((a, b) => a.x - b.x);
  }

  node(key: string): ChartNode | undefined {
    return this.byKey.get(key);
  }

  /** The key of the node a move from `key` lands on; the same key when there is nowhere to go. */
  move(key: string, move: Move): string {
    const node = this.byKey.get(key);
    if (!node) return "root";
    switch (move) {
      case "home":
        return "root";
      case "up":
        return node.up.find((k) => this.byKey.has(k)) ?? key;
      case "down": {
        // Back along the way we came (a pedigree's `from`), else the first child.
        if (node.from && node.down.includes(node.from)) return node.from;
        return node.down.find((k) => this.byKey.has(k)) ?? key;
      }
      case "left":
      case "right": {
        const row = this.rows.get(node.row)!;
        const at = row.indexOf(node);
        const next = row[at + (move === "left" ? -1 : 1)];
        return next ? next.key : key;
      }
    }
  }
}
