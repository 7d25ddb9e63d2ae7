// Where a page about one event's bookings sits: home, the events, the event.
import { Breadcrumbs } from "../../components/Breadcrumbs";
import { eventPath } from "./booking-paths";
import { EVENTS_PATH } from "./events";

export function EventCrumbs({ uid, title }: { uid: string; title: string }) {
  return (
    <Breadcrumbs
      items={[
        { to: "/", label: "Home" },
        { to: EVENTS_PATH, label: "Events" },
        { to: eventPath(uid), label: title },
      ]}
    />
  );
}
