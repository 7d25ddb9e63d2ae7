import { useSyncExternalStore } from "react";

function subscribe(onChange: () => void) {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

/** Whether the browser believes it is online; always true on the server. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

/** A notice shown while the browser is offline. */
export function OnlineStatus() {
  const online = useOnline();
  return (
    <div role="status" className="online-status" data-online={online}>
      {online ? null : (
        <p className="online-status__message">
          You are offline. Pages you have not opened yet will load once your connection returns.
        </p>
      )}
    </div>
  );
}
