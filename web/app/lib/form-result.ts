// What a form's action answers, so pages can show it next to the form that sent it.

/** Field name → messages (the Go API's 422 `errors`). */
export type FieldErrors = Record<string, string[]>;

export interface FormResult {
  ok: boolean;
  /** Which form sent it (pages with several forms post an `intent`). */
  intent?: string;
  /** The item the form acted on, for forms repeated per item. */
  target?: string;
  /** A message for the whole form: success, or a failure no field explains. */
  message?: string;
  errors?: FieldErrors;
  /** Submitted values to put back in the fields (never passwords). */
  values?: Record<string, string>;
}

/** The first field, in form order, that has an error. */
export function firstErrorField(errors: FieldErrors | undefined, order: readonly string[]): string | undefined {
  if (!errors) return undefined;
  return order.find((name) => errors[name]?.length);
}

/** Whether a result belongs to the form with this intent (and target). */
export function resultFor(result: unknown, intent: string, target?: string | number): FormResult | undefined {
  if (!result || typeof result !== "object") return undefined;
  const r = result as FormResult;
  if (r.intent !== intent) return undefined;
  if (target !== undefined && r.target !== String(target)) return undefined;
  return r;
}
