// Alerts of saved searches in plain words: the choices of the control and what each
// one does, and reading the posted choice.
import type { AlertFrequency } from "./types";

export type AlertChoice = AlertFrequency | "off";

/** The control's choices, in order, each with the words that say what it does. */
export const ALERT_CHOICES: readonly { value: AlertChoice; label: string }[] = [
  { value: "off", label: "Off: no emails about this search" },
  { value: "immediately", label: "As soon as new records match" },
  { value: "daily", label: "At most once a day" },
  { value: "weekly", label: "At most once a week" },
];

export function parseAlertChoice(value: string): AlertChoice | null {
  return ALERT_CHOICES.some((c) => c.value === value) ? (value as AlertChoice) : null;
}

/** What the alert of a search does, as a sentence about the search named `name`. */
export function alertSentence(choice: AlertChoice, name: string): string {
  switch (choice) {
    case "off":
      return `We will not email you about “${name}”.`;
    case "immediately":
      return `We will email you soon after new records matching “${name}” are added.`;
    case "daily":
      return `We will email you at most once a day when new records match “${name}”.`;
    case "weekly":
      return `We will email you at most once a week when new records match “${name}”.`;
  }
}
