// The release forms' date and time: typed in this computer's time, sent in UTC.
import formStyles from "../../components/forms/forms.module.css";

export const RELEASE_WORDS = { open: "Not scheduled", scheduled: "Scheduled", published: "Published", failed: "Could not be published" } as const;

/** The date and time field in this computer's time; a hidden field carries it in UTC. */
export function ScheduleInput({ errors, value }: { errors?: string[]; value?: string | null }) {
  return (
    <div className={errors ? `${formStyles.field} ${formStyles.fieldError}` : formStyles.field}>
      <label htmlFor="release-at">Publish on (date and time)</label>
      <p id="release-at-hint" className={formStyles.hint}>
        In this computer’s time. Leave it empty to publish it by hand.
      </p>
      {errors ? <p className={formStyles.error}>{errors.join(" ")}</p> : null}
      <input id="release-at" name="local_at" type="datetime-local" step={1} className={formStyles.input} aria-describedby="release-at-hint" defaultValue={value ? toLocal(value) : ""} />
      <input type="hidden" name="scheduled_at" defaultValue={value ?? ""} />
    </div>
  );
}

function toLocal(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Before a release form is sent: its local date and time written into the UTC field. */
export function localTimeToUtc(event: { currentTarget: HTMLFormElement }) {
  const form = event.currentTarget;
  const local = form.elements.namedItem("local_at") as HTMLInputElement | null;
  const utc = form.elements.namedItem("scheduled_at") as HTMLInputElement | null;
  if (!local || !utc) return;
  const d = local.value ? new Date(local.value) : null;
  utc.value = d && !Number.isNaN(d.getTime()) ? d.toISOString() : "";
}

