/**
 * Reads kept by key for the life of one run of a turn: the first caller reads, later callers
 * share its promise. A failed read is not kept, so the next caller tries again.
 */
export class ReadOnce<T> {
  private readonly kept = new Map<string, Promise<T>>();

  get(key: string, read: () => Promise<T>): Promise<T> {
    let value = this.kept.get(key);
    if (!value) {
      const reading = read();
      value = reading;
      this.kept.set(key, reading);
      reading.catch(() => {
        if (this.kept.get(key) === reading) this.kept.delete(key);
      });
    }
    return value;
  }

  /** Forget everything read: the next callers read again. */
  clear(): void {
    this.kept.clear();
  }
}
