// The top loading bar's timing (seed-spec §9): it appears only when loading
// lasts longer than 200 ms, creeps across over 5000 ms, and when loading ends
// it fills and disappears 500 ms later.

export const LOADING_BAR_THROTTLE_MS = 200;
export const LOADING_BAR_DURATION_MS = 5_000;
export const LOADING_BAR_HIDE_DELAY_MS = 500;

/** idle: hidden; waiting: loading, not shown yet; running: shown; finishing: full, about to hide. */
export type LoadingBarPhase = "idle" | "waiting" | "running" | "finishing";

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export class LoadingBarController {
  #phase: LoadingBarPhase = "idle";
  #timer: unknown = null;
  readonly #onChange: (phase: LoadingBarPhase) => void;
  readonly #timers: Timers;

  constructor(onChange: (phase: LoadingBarPhase) => void, timers: Timers) {
    this.#onChange = onChange;
    this.#timers = timers;
  }

  get phase(): LoadingBarPhase {
    return this.#phase;
  }

  /** Loading began. */
  start(): void {
    if (this.#phase === "waiting" || this.#phase === "running") return;
    this.#clear();
    if (this.#phase === "finishing") {
      this.#set("running");
      return;
    }
    this.#set("waiting");
    this.#timer = this.#timers.setTimeout(() => this.#set("running"), LOADING_BAR_THROTTLE_MS);
  }

  /** Loading ended. */
  finish(): void {
    if (this.#phase === "waiting") {
      this.#clear();
      this.#set("idle");
    } else if (this.#phase === "running") {
      this.#set("finishing");
      this.#timer = this.#timers.setTimeout(() => this.#set("idle"), LOADING_BAR_HIDE_DELAY_MS);
    }
  }

  dispose(): void {
    this.#clear();
  }

  #clear(): void {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer);
    this.#timer = null;
  }

  #set(phase: LoadingBarPhase): void {
    if (phase === this.#phase) return;
    this.#phase = phase;
    this.#onChange(phase);
  }
}
