// The tree viewer on a tree's page: a chart (pedigree, descendants or hourglass) drawn
// in SVG after hydration, with pan and zoom, click to move to a person and a keyboard
// model (keyboard.ts); and, always, the same people as nested lists, rendered on the
// server, which is what screen readers and browsers without JavaScript use.
//
// The chart holds only what the graph endpoint sent for the generations asked for, so
// a 10 000-person tree costs no more than a 10-person one. Moving to a person is a
// navigation to ?person=… (the loader fetches that person's graph), so the address
// always names what is shown and the back button works.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { Form, Link, useNavigate } from "react-router";
import { GraphIndex, layoutChart, listModel, wholeChartView, type ChartGraph, type ChartLayout, type ChartNode, type ListItem } from "./chart";
import { ChartNavigator, moveForKey } from "./keyboard";
import { CHART_KINDS, MAX_GENERATIONS, MIN_GENERATIONS, personPath, viewerHref, type ChartKind, type ViewerState } from "./slug";
import styles from "./trees.module.css";

const BOX_W = 264;
const BOX_H = 84;
const GAP_X = 24;
const ROW_H = 140;
const MIN_SCALE = 0.25;
/** The smallest scale the chart starts at: the boxes' 20px and 18px text stay at 16px and more. */
const READABLE_SCALE = 0.8;
/**
 * The smallest scale "Show the whole chart" shrinks to: the 18px second line stays at
 * 12px. A chart that needs less is drawn at this scale in a frame that scrolls.
 */
const LEGIBLE_SCALE = 2 / 3;
const SCROLL_NOTE = "The whole chart is larger than the frame at a readable size: scroll the frame to see all of it.";
const MAX_SCALE = 2;
const NAME_CHARS = 22;

const CHART_LABELS: Record<ChartKind, string> = {
  pedigree: "Pedigree (ancestors)",
  descendants: "Descendants",
  hourglass: "Hourglass (ancestors and descendants)",
};

interface Props {
  tree: string;
  graph: ChartGraph | null;
  state: ViewerState;
}

export function TreeViewer({ tree, graph, state }: Props) {
  const layout = useMemo(() => (graph ? layoutChart(graph, state.chart, state.generations) : null), [graph, state.chart, state.generations]);
  const index = useMemo(() => (graph ? new GraphIndex(graph) : null), [graph]);
  const rootPerson = graph && index ? index.person(graph.root) : undefined;
  const hydrated = useHydrated();

  return (
    <section aria-labelledby="viewer-heading" id="viewer" className={styles.viewer}>
      <h2 id="viewer-heading">Tree viewer</h2>
      <ViewerControls tree={tree} state={state} />
      {!layout || !index || !rootPerson ? (
        <p>There is nobody to show in this tree yet.</p>
      ) : (
        <>
          <p className={styles.viewerFor}>
            Showing the {CHART_LABELS[state.chart].toLowerCase()} of <Link to={personPath(tree, rootPerson.id)}>{rootPerson.name}</Link>,{" "}
            {state.generations} generations.
          </p>
          {hydrated ? <Chart tree={tree} layout={layout} index={index} state={state} /> : null}
          <PeopleList tree={tree} layout={layout} index={index} state={state} />
        </>
      )}
    </section>
  );
}

/** True after the first render in the browser (never on the server). */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

function ViewerControls({ tree, state }: { tree: string; state: ViewerState }) {
  const generations = [];
  for (let g = MIN_GENERATIONS; g <= MAX_GENERATIONS; g++) generations.push(g);
  return (
    <Form method="get" action={`${viewerHref(tree, { ...state, person: null }, "")}#viewer`} preventScrollReset className={styles.controls}>
      {state.person ? <input type="hidden" name="person" value={state.person} /> : null}
      <div className={styles.control}>
        <label htmlFor="viewer-chart">Chart</label>
        <select id="viewer-chart" name="chart" defaultValue={state.chart} key={state.chart}>
          {CHART_KINDS.map((k) => (
            <option key={k} value={k}>
              {CHART_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      <div className={styles.control}>
        <label htmlFor="viewer-generations">Generations</label>
        <select id="viewer-generations" name="generations" defaultValue={String(state.generations)} key={state.generations}>
          {generations.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button">
        Show chart
      </button>
    </Form>
  );
}

function shorten(text: string, max = NAME_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}

interface View {
  x: number;
  y: number;
  k: number;
}

function nodeBox(layout: ChartLayout, n: ChartNode) {
  return { left: n.x * (BOX_W + GAP_X) - BOX_W / 2, top: (n.row - layout.minRow) * ROW_H };
}

function Chart({ tree, layout, index, state }: { tree: string; layout: ChartLayout; index: GraphIndex; state: ViewerState }) {
  const navigate = useNavigate();
  const nav = useMemo(() => new ChartNavigator(layout), [layout]);
  const frame = useRef<HTMLDivElement>(null);
  const nodeRefs = useRef(new Map<string, SVGGElement>());
  const [focusKey, setFocusKey] = useState("root");
  const [view, setView] = useState<View>({ x: 0, y: 0, k: 1 });
  const [status, setStatus] = useState("");
  // The canvas the frame scrolls over while the whole chart is shown larger than it.
  const [scroll, setScroll] = useState<{ width: number; height: number } | null>(null);
  const drag = useRef<{ x: number; y: number; vx: number; vy: number; moved: boolean; id: number } | null>(null);
  // Set when a drag that moved ends, until the click that follows it has been ignored.
  const dragEnded = useRef(false);
  const refocus = useRef(false);
  const width = layout.columns * (BOX_W + GAP_X);
  const height = (layout.maxRow - layout.minRow) * ROW_H + BOX_H;

  // The starting view: readable (at least READABLE_SCALE), the person in sight, the
  // chart's other rows on the side they grow to (above for ancestors, below for
  // descendants). `whole` instead shrinks the chart until all of it fits, down to
  // LEGIBLE_SCALE; past that the frame scrolls over the chart drawn at that scale.
  const fit = useCallback(
    (whole = false) => {
      const el = frame.current;
      const root = nav.node("root");
      if (!el || !root) return;
      const vw = el.clientWidth;
      const vh = el.clientHeight;
      const margin = 16;
      if (whole) {
        const boxes = layout.nodes.map((n) => nodeBox(layout, n));
        const bounds = {
          left: Math.min(...boxes.map((b) => b.left)),
          right: Math.max(...boxes.map((b) => b.left + BOX_W)),
          top: 0,
          bottom: height,
        };
        const w = wholeChartView(bounds, vw, vh, LEGIBLE_SCALE, margin);
        setScroll(w.scroll);
        if (!w.scroll) el.scrollTo({ left: 0, top: 0 });
        setView({ x: w.x, y: w.y, k: w.k });
        setStatus(w.scroll ? SCROLL_NOTE : "");
        if (w.scroll) requestAnimationFrame(() => el.scrollTo({ left: (w.scroll!.width - vw) / 2, top: 0 }));
        return;
      }
      setScroll(null);
      el.scrollTo({ left: 0, top: 0 });
      const fits = Math.min(1, (vw - 2 * margin) / width, (vh - 2 * margin) / height);
      const k = Math.max(READABLE_SCALE, fits);
      const box = nodeBox(layout, root);
      const x = width * k <= vw ? (vw - width * k) / 2 : vw / 2 - (box.left + BOX_W / 2) * k;
      let y: number;
      if (height * k <= vh) y = (vh - height * k) / 2;
      else if (layout.maxRow === 0) y = vh - margin - (box.top + BOX_H) * k; // ancestors only: the person at the bottom
      else if (layout.minRow === 0) y = margin - box.top * k; // descendants only: the person at the top
      else y = vh / 2 - (box.top + BOX_H / 2) * k;
      setView({ x, y, k });
    },
    [height, layout, nav, width],
  );

  useLayoutEffect(() => {
    setFocusKey("root");
    fit();
    if (refocus.current) {
      refocus.current = false;
      nodeRefs.current.get("root")?.focus({ preventScroll: true });
    }
  }, [fit]);

  const zoomBy = useCallback((factor: number, cx?: number, cy?: number) => {
    const el = frame.current;
    if (scroll) {
      // Leaving the scrolled whole chart: zoom about what the frame shows.
      setScroll(null);
      setStatus("");
      if (el) {
        const dx = el.scrollLeft;
        const dy = el.scrollTop;
        el.scrollTo({ left: 0, top: 0 });
        setView((v) => ({ ...v, x: v.x - dx, y: v.y - dy }));
      }
    }
    setView((v) => {
      const k = Math.min(MAX_SCALE, Math.max(MIN_SCALE, v.k * factor));
      const px = cx ?? (el ? el.clientWidth / 2 : 0);
      const py = cy ?? (el ? el.clientHeight / 2 : 0);
      return { k, x: px - ((px - v.x) * k) / v.k, y: py - ((py - v.y) * k) / v.k };
    });
  }, [scroll]);

  // Ctrl (or ⌘) and the wheel zoom, as does a trackpad pinch (which browsers send as a
  // wheel event with ctrlKey); the plain wheel scrolls the page, so the chart is no trap
  // for readers scrolling past it. Cancelling the page's zoom needs a non-passive listener.
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      const r = el.getBoundingClientRect();
      zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX - r.left, e.clientY - r.top);
    };
    el.addEventListener("wheel", onWheel, { passive: false });
    return () => el.removeEventListener("wheel", onWheel);
  }, [zoomBy]);

  // Keep a node that takes focus inside the frame.
  const reveal = useCallback(
    (key: string) => {
      const el = frame.current;
      const n = nav.node(key);
      if (!el || !n) return;
      if (scroll) {
        // The frame scrolls: bring the box into its view.
        nodeRefs.current.get(key)?.scrollIntoView({ block: "nearest", inline: "nearest" });
        return;
      }
      const box = nodeBox(layout, n);
      setView((v) => {
        const left = v.x + box.left * v.k;
        const top = v.y + box.top * v.k;
        const right = left + BOX_W * v.k;
        const bottom = top + BOX_H * v.k;
        const margin = 16;
        let { x, y } = v;
        if (left < margin) x += margin - left;
        else if (right > el.clientWidth - margin) x -= right - (el.clientWidth - margin);
        if (top < margin) y += margin - top;
        else if (bottom > el.clientHeight - margin) y -= bottom - (el.clientHeight - margin);
        return x === v.x && y === v.y ? v : { ...v, x, y };
      });
    },
    [layout, nav, scroll],
  );

  const moveTo = (node: ChartNode, fromKeyboard: boolean) => {
    if (node.key === "root") {
      fit();
      return;
    }
    refocus.current = fromKeyboard || frame.current?.contains(document.activeElement) === true;
    navigate(viewerHref(tree, { ...state, person: node.person }), { preventScrollReset: true });
  };

  const onKeyDown = (e: KeyboardEvent<SVGGElement>, node: ChartNode) => {
    const move = moveForKey(e.key);
    if (move) {
      e.preventDefault();
      const next = nav.move(node.key, move);
      if (next === node.key) {
        setStatus(move === "up" ? "No parents shown." : move === "down" ? "No children shown." : move === "home" ? "" : "Nobody further this way.");
        return;
      }
      setStatus("");
      setFocusKey(next);
      reveal(next);
      nodeRefs.current.get(next)?.focus({ preventScroll: true });
      return;
    }
    if (e.key === "Enter") {
      e.preventDefault();
      navigate(personPath(tree, node.person));
    } else if (e.key === " ") {
      e.preventDefault();
      moveTo(node, true);
    } else if (e.key === "+" || e.key === "=") {
      e.preventDefault();
      zoomBy(1.25);
    } else if (e.key === "-") {
      e.preventDefault();
      zoomBy(1 / 1.25);
    }
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    // While the frame scrolls over the whole chart, touch and wheel scroll it.
    if (e.button !== 0 || scroll) return;
    drag.current = { x: e.clientX, y: e.clientY, vx: view.x, vy: view.y, moved: false, id: e.pointerId };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < 5) return;
    if (!d.moved) {
      d.moved = true;
      frame.current?.setPointerCapture(e.pointerId);
    }
    setView((v) => ({ ...v, x: d.vx + dx, y: d.vy + dy }));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (d?.moved) frame.current?.releasePointerCapture(e.pointerId);
    // The drag is over at once (a pointer move queued behind this event must not pan),
    // but a drag that moved is not a click on the node it ended on.
    drag.current = null;
    if (d?.moved) {
      dragEnded.current = true;
      window.setTimeout(() => (dragEnded.current = false), 0);
    }
  };

  const focused = nav.node(focusKey) ?? nav.node("root")!;
  const focusedPerson = index.person(focused.person);
  const rootName = index.person(layout.root)?.name ?? "";

  return (
    <div className={styles.chartWrap}>
      <div className={styles.chartBar}>
        <button type="button" className="button" onClick={() => zoomBy(1.25)}>
          Zoom in
        </button>
        <button type="button" className="button" onClick={() => zoomBy(1 / 1.25)}>
          Zoom out
        </button>
        <button type="button" className="button" onClick={() => fit(true)}>
          Show the whole chart
        </button>
        <button type="button" className="button" onClick={() => fit()}>
          Back to {rootName}
        </button>
      </div>
      <p id="viewer-help" className={styles.help}>
        Drag to pan, use the buttons (or Ctrl and the wheel, or a pinch) to zoom, click a person to move the chart to them. With the keyboard: Tab into the
        chart, arrow keys move to a parent (up), a child (down) or the person beside (left and right, partners sit side by side),
        Home returns to {rootName}, Space moves the chart to the person, Enter opens their page, + and − zoom.
      </p>
      <div
        ref={frame}
        className={scroll ? `${styles.frame} ${styles.frameScroll}` : styles.frame}
        data-scrolls={scroll ? "true" : undefined}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      >
        <svg
          className={styles.svg}
          role="group"
          aria-label={`${CHART_LABELS[layout.kind]} chart of ${rootName}`}
          aria-describedby="viewer-help"
          width={scroll ? scroll.width : "100%"}
          height={scroll ? scroll.height : "100%"}
          style={scroll ? { width: scroll.width, height: scroll.height } : undefined}
        >
          <g transform={`translate(${view.x} ${view.y}) scale(${view.k})`}>
            <g className={styles.edges} aria-hidden="true">
              {layout.edges.map((e, i) => {
                const x1 = e.upperX * (BOX_W + GAP_X);
                const y1 = (e.upperRow - layout.minRow) * ROW_H + BOX_H;
                const x2 = e.lowerX * (BOX_W + GAP_X);
                const y2 = (e.lowerRow - layout.minRow) * ROW_H;
                const mid = (y1 + y2) / 2;
                return <path key={i} d={`M${x1} ${y1}V${mid}H${x2}V${y2}`} />;
              })}
            </g>
            {layout.nodes.map((n) => {
              const p = index.person(n.person);
              const box = nodeBox(layout, n);
              // The box's name is its text (so what is seen is what is read): the name,
              // then the years and the relation to the box it hangs from.
              const second = [p?.years ?? "", n.relation ? n.relation.toLowerCase() : ""].filter(Boolean).join(", ");
              const cls = [styles.node, n.key === "root" ? styles.nodeRoot : "", p?.sex === "F" ? styles.nodeF : p?.sex === "M" ? styles.nodeM : ""].join(" ");
              return (
                <g
                  key={n.key}
                  ref={(el) => {
                    if (el) nodeRefs.current.set(n.key, el);
                    else nodeRefs.current.delete(n.key);
                  }}
                  className={cls}
                  transform={`translate(${box.left} ${box.top})`}
                  role="button"
                  tabIndex={n.key === focused.key ? 0 : -1}
                  data-person={n.person}
                  data-key={n.key}
                  onFocus={() => setFocusKey(n.key)}
                  onKeyDown={(e) => onKeyDown(e, n)}
                  onClick={() => {
                    if (dragEnded.current || drag.current?.moved) return;
                    setFocusKey(n.key);
                    moveTo(n, false);
                  }}
                >
                  <rect width={BOX_W} height={BOX_H} rx={6} />
                  <text x={14} y={34} className={styles.nodeName}>
                    {shorten(p?.name ?? n.person)}
                  </text>
                  {second ? (
                    <text x={14} y={66} className={styles.nodeYears}>
                      {shorten(second, NAME_CHARS + 4)}
                    </text>
                  ) : null}
                </g>
              );
            })}
          </g>
        </svg>
      </div>
      <div className={styles.selected}>
        {focusedPerson ? (
          <p>
            <strong>{focusedPerson.name}</strong>
            {focusedPerson.years ? ` (${focusedPerson.years})` : ""}:{" "}
            <Link to={personPath(tree, focusedPerson.id)}>open {focusedPerson.name}’s page</Link>
          </p>
        ) : null}
        <p role="status" className={styles.status}>
          {status}
        </p>
      </div>
    </div>
  );
}

function PeopleList({ tree, layout, index, state }: { tree: string; layout: ChartLayout; index: GraphIndex; state: ViewerState }) {
  const sections = listModel(layout);
  const item = (it: ListItem) => {
    const p = index.person(it.person);
    const name = p?.name ?? it.person;
    return (
      <li key={it.key}>
        {it.relation ? <span className={styles.relation}>{it.relation}: </span> : null}
        <Link to={personPath(tree, it.person)}>{name}</Link>
        {p?.years ? <span className={styles.years}> {p.years}</span> : null}
        {it.key !== "root" ? (
          <>
            {" "}
            <Link to={viewerHref(tree, { ...state, person: it.person })} preventScrollReset className={styles.centre}>
              show chart<span className="visually-hidden"> of {name}</span>
            </Link>
          </>
        ) : null}
        {it.items.length ? <ul>{it.items.map(item)}</ul> : null}
      </li>
    );
  };
  return (
    <div className={styles.list}>
      <h3 id="viewer-list">People in this chart</h3>
      {sections.map((s) => (
        <section key={s.title} aria-label={`${s.title} of ${index.person(layout.root)?.name ?? ""}`}>
          {sections.length > 1 ? <h4>{s.title}</h4> : null}
          <ul className={styles.tree}>{item(s.item)}</ul>
        </section>
      ))}
    </div>
  );
}
