import { useEffect, useRef, useState } from "react";
import { useNavigation } from "react-router";
import { LOADING_BAR_DURATION_MS, LoadingBarController, type LoadingBarPhase } from "./loading-bar";

/** Loading phase of the current navigation, shared by the bar and the pending UI. */
export function useLoadingPhase(): LoadingBarPhase {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [phase, setPhase] = useState<LoadingBarPhase>("idle");
  const controller = useRef<LoadingBarController | null>(null);

  useEffect(() => {
    const c = new LoadingBarController(setPhase, {
      setTimeout: (fn, ms) => window.setTimeout(fn, ms),
      clearTimeout: (h) => window.clearTimeout(h as number),
    });
    controller.current = c;
    return () => c.dispose();
  }, []);

  useEffect(() => {
    if (busy) controller.current?.start();
    else controller.current?.finish();
  }, [busy]);

  return phase;
}

/** The thin bar at the top of the window while a page loads. */
export function LoadingBar({ phase }: { phase: LoadingBarPhase }) {
  const visible = phase === "running" || phase === "finishing";
  return (
    <div
      className="loading-bar"
      data-phase={phase}
      aria-hidden="true"
      style={{ ["--loading-bar-duration" as string]: `${LOADING_BAR_DURATION_MS}ms` }}
      hidden={!visible}
    >
      <div className="loading-bar__fill" />
    </div>
  );
}
