// A bounded map for the server's in-process caches (content responses, route access)
// and memoised values in components.

/** A map that forgets its least recently used entry when it grows past `max`. */
export class LruCache<V> {
  readonly max: number;
  #entries = new Map<string, V>();

  constructor(max: number) {
    if (!(max > 0)) throw new RangeError("LruCache needs a positive size");
    this.max = max;
  }

  get size(): number {
    return this.#entries.size;
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
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.max) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }

  keys(): string[] {
    return [...this.#entries.keys()];
  }
}
