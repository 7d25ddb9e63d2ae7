import type { ReactNode } from "react";
import { LoadingBar, useLoadingPhase } from "../features/navigation/LoadingBar";
import { OnlineStatus } from "../features/navigation/OnlineStatus";
import { useNavigationScroll } from "../features/navigation/useNavigationScroll";
import { PreviewBar } from "../components/PreviewBar";
import { SiteFooter } from "./SiteFooter";
import { SiteHeader } from "./SiteHeader";

export const MAIN_ID = "main-content";

/** Everything around a page: skip link, loading bar, header, main, footer. */
export function SiteShell({ children, preview = false }: { children: ReactNode; preview?: boolean }) {
  const phase = useLoadingPhase();
  useNavigationScroll(MAIN_ID);
  const pending = phase === "running";
  return (
    <>
      <a className="skip-link" href={`#${MAIN_ID}`}>
        Skip to main content
      </a>
      <LoadingBar phase={phase} />
      {preview ? <PreviewBar /> : null}
      <OnlineStatus />
      <SiteHeader />
      <main id={MAIN_ID} tabIndex={-1} className={pending ? "site-main is-pending" : "site-main"} aria-busy={pending || undefined}>
        {children}
      </main>
      <div className="visually-hidden" role="status" aria-live="polite">
        {pending ? "Loading page…" : ""}
      </div>
      <SiteFooter />
    </>
  );
}
