import { useEffect, useRef } from "react";
import { useLocation } from "react-router";
import { browserScrollEnvironment, scrollAfterNavigation } from "./hash-scroll";

/**
 * After every navigation: scroll to the hash target (retrying until it
 * exists) or to the top, and move keyboard focus to the main content so
 * screen readers start reading the new page.
 */
export function useNavigationScroll(mainId: string): void {
  const location = useLocation();
  const first = useRef(true);

  useEffect(() => {
    const isFirst = first.current;
    first.current = false;
    // On first load the browser has scrolled already; only help a late hash target.
    if (isFirst && !location.hash) return;
    const stop = scrollAfterNavigation(location.hash, browserScrollEnvironment());
    if (!isFirst && !location.hash) {
      const main = document.getElementById(mainId);
      main?.focus({ preventScroll: true });
    }
    return stop;
    // Runs once per navigation (a new location key), not on re-renders.
  }, [location.key]);
}
