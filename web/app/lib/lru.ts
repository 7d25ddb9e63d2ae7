// A bounded map for the server's in-process caches (content responses, route access)
// and memoised values in components.

/** Bounds a cache by the sum of its entries' weights (bytes, say) as well as by their number. */
export interface LruWeight<V> {
  /** The most the entries may weigh together; an entry heavier than this is not kept. */
  max: number;
  weigh: (value: V) => number;
}

/**
 * A map that forgets its least recently used entries when it grows past `max` entries
 * or, given a weight, past `weight.max`.
 */
export class LruCache<V> {
  readonly max: number;
  readonly maxWeight: number;
  #entries = new Map<string, V>();
  #weigh: ((value: V) => number) | undefined;
  #weights = new Map<string, number>();
  #weight = 0;

  constructor(max: number, weight?: LruWeight<V>) {
    if (!(max > 0)) throw new RangeError("LruCache needs a positive size");
    if (weight && !(weight.max > 0)) throw new RangeError("LruCache needs a positive weight limit");
    this.max = max;
    this.maxWeight = weight?.max ?? Infinity;
    this.#weigh = weight?.weigh;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The sum of the entries' weights (0 without a weight). */
  get weight(): number {
    return this.#weight;
  }

  get(key: string): V | undefined {
    if (!this.#entries.has(key)) return undefined;
    const value = this.#entries.get(key) as V;
    // Re-insert so that Map order is least → most recently used.
    this.#entries.delete(key);
    this.#entries.set(key, value);
    return value;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  set(key: string, value: V): void {
    this.delete(key);
    const weight = this.#weigh ? this.#weigh(value) : 0;
    // Not a number (a broken weigh) counts as too heavy, so the bound always holds.
    if (!(weight >= 0 && weight <= this.maxWeight)) return;
    this.#entries.set(key, value);
    if (this.#weigh) {
      this.#weights.set(key, weight);
      this.#weight += weight;
    }
    while (this.#entries.size > this.max || this.#weight > this.maxWeight) {
      this.delete(this.#entries.keys().next().value as string);
    }
  }

  delete(key: string): void {
    if (!this.#entries.delete(key)) return;
    this.#weight -= this.#weights.get(key) ?? 0;
    this.#weights.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#weights.clear();
    this.#weight = 0;
  }

  keys(): string[] {
    return [...this.#entries.keys()];
  }
}
