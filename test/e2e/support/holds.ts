// Lets a test freeze the fake model at a chosen request and look at the UI meanwhile: no timing, no sleeps.

interface Hold {
  arrived: Promise<void>;
  markArrived(): void;
  released: Promise<void>;
  release(): void;
}

/**
 * Named holds. The fake server's script awaits `hold(key)` before answering; the test awaits
 * `arrived(key)`, checks the UI while the request waits, then calls `release(key)`. A key that was
 * released lets later holds through at once.
 */
export class Holds {
  private readonly holds = new Map<string, Hold>();

  private get(key: string): Hold {
    let hold = this.holds.get(key);
    if (!hold) {
      let markArrived!: () => void;
      let release!: () => void;
      const arrived = new Promise<void>((resolve) => (markArrived = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { arrived, markArrived, released, release };
      this.holds.set(key, hold);
    }
    return hold;
  }

  /** Called by the fake: resolves when the test releases `key`. */
  hold(key: string): Promise<void> {
    const hold = this.get(key);
    hold.markArrived();
    return hold.released;
  }

  /** Resolves when the fake is holding a request under `key`; rejects after `timeoutMs`. */
  async arrived(key: string, timeoutMs = 60_000): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for the model request "${key}"`)), timeoutMs);
    });
    try {
      await Promise.race([this.get(key).arrived, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Lets the request held under `key` (and any later one) through. */
  release(key: string): void {
    this.get(key).release();
  }

  /** Releases everything (for cleanup after a failure). */
  releaseAll(): void {
    for (const hold of this.holds.values()) hold.release();
  }
}
