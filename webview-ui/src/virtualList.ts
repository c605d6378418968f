import { h } from './dom';

/** Builds and patches the DOM of one kind of row. */
export interface RowRenderer<T> {
  /** A fresh element for `item`. */
  create(item: T): HTMLElement;
  /** Brings `element` (made for `previous`) up to date with `item`; may return a replacement element. */
  update(element: HTMLElement, item: T, previous: T): HTMLElement;
  /** Height guess in pixels before the row has been measured. */
  estimate(item: T): number;
}

interface Row<T> {
  item: T;
  wrapper: HTMLElement;
  element: HTMLElement;
}

/** Rows kept in the DOM beyond the visible area, in pixels on each side. */
const OVERSCAN_PX = 600;
/** Hard cap on rows in the DOM, whatever the row heights: keeps the node count bounded. */
const MAX_ROWS = 120;
/** Distance from the bottom within which the list keeps following new rows. */
const FOLLOW_SLACK_PX = 48;

/**
 * A windowed list: only the rows in view (plus a margin) are in the DOM; spacers stand in for the
 * rest, sized from measured (or estimated) heights. Rows are keyed by `id` and patched only when
 * their item object changed. While scrolled to the bottom it follows new rows.
 */
export class VirtualList<T extends { id: string }> {
  readonly element: HTMLElement;
  private readonly topSpacer = h('div', { class: 'vl-spacer', 'aria-hidden': 'true' });
  private readonly bottomSpacer = h('div', { class: 'vl-spacer', 'aria-hidden': 'true' });
  private readonly body = h('div', { class: 'vl-rows', role: 'list' });
  private items: readonly T[] = [];
  private readonly heights = new Map<string, number>();
  private readonly rows = new Map<string, Row<T>>();
  private offsets: number[] = [0];
  private following = true;
  /** scrollTop as the last update left it. */
  private lastScrollTop = 0;
  private frame = 0;
  private readonly resizeObserver: ResizeObserver;
  private readonly onFollowChange: (following: boolean) => void;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly renderer: RowRenderer<T>,
    options: { onFollowChange?: (following: boolean) => void } = {},
  ) {
    this.onFollowChange = options.onFollowChange ?? (() => {});
    this.element = h('div', { class: 'vl' }, this.topSpacer, this.body, this.bottomSpacer);
    this.resizeObserver = new ResizeObserver(() => this.schedule());
    this.resizeObserver.observe(this.scroller);
    this.scroller.addEventListener('scroll', () => {
      const following = this.atBottom();
      if (following !== this.following) {
        this.following = following;
        this.onFollowChange(following);
      }
      this.schedule();
    }, { passive: true });
  }

  /** Number of rows currently in the DOM. */
  get renderedCount(): number {
    return this.rows.size;
  }

  /** Replaces the item list (by reference; unchanged items keep their DOM) and updates soon. */
  setItems(items: readonly T[]): void {
    if (items === this.items) return;
    this.items = items;
    this.schedule();
  }

  /** Forgets everything (another run is shown) and follows the bottom again. */
  clear(): void {
    for (const row of this.rows.values()) this.resizeObserver.unobserve(row.wrapper);
    this.rows.clear();
    this.heights.clear();
    this.body.textContent = '';
    this.items = [];
    this.setFollowing(true);
    this.schedule();
  }

  /** Scrolls so that the row with `id` is at the top; stops following. */
  scrollToId(id: string): void {
    const index = this.items.findIndex((item) => item.id === id);
    if (index < 0) return;
    this.computeOffsets();
    this.setFollowing(false);
    this.scroller.scrollTop = this.listTop() + this.offsets[index]!;
    this.update();
  }

  /** Scrolls to the end and follows new rows again. */
  scrollToEnd(): void {
    this.setFollowing(true);
    this.update();
  }

  /** Renders now rather than on the next frame (tests, benchmarks). */
  flush(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.update();
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.update();
    });
  }

  private setFollowing(following: boolean): void {
    if (following === this.following) return;
    this.following = following;
    this.onFollowChange(following);
  }

  private atBottom(): boolean {
    const s = this.scroller;
    return s.scrollTop + s.clientHeight >= s.scrollHeight - FOLLOW_SLACK_PX;
  }

  /** Where the list starts inside the scroller's content (other content may sit above it). */
  private listTop(): number {
    return this.element.getBoundingClientRect().top - this.scroller.getBoundingClientRect().top + this.scroller.scrollTop;
  }

  private heightOf(item: T): number {
    return this.heights.get(item.id) ?? this.renderer.estimate(item);
  }

  private computeOffsets(): void {
    const offsets = new Array<number>(this.items.length + 1);
    offsets[0] = 0;
    for (let i = 0; i < this.items.length; i++) offsets[i + 1] = offsets[i]! + this.heightOf(this.items[i]!);
    this.offsets = offsets;
  }

  /** First index whose row ends below `y`. */
  private indexAt(y: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.offsets[mid + 1]! <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private update(): void {
    // A hidden list (its view replaced by another, e.g. the set-up) has no layout: every row would
    // measure 0 and poison the heights, so nothing would be drawn once shown. Wait: the scroller's
    // ResizeObserver schedules an update when it is laid out again.
    if (this.scroller.getClientRects().length === 0) return;
    // The user may have scrolled since the last update without the scroll event having arrived yet.
    if (Math.abs(this.scroller.scrollTop - this.lastScrollTop) > 1) this.setFollowing(this.atBottom());
    this.computeOffsets();
    const total = this.offsets[this.items.length]!;
    const viewHeight = this.scroller.clientHeight || 600;
    const top = this.following ? Math.max(0, total - viewHeight) : Math.max(0, this.scroller.scrollTop - this.listTop());
    let start = this.indexAt(Math.max(0, top - OVERSCAN_PX));
    let end = Math.min(this.items.length, this.indexAt(top + viewHeight + OVERSCAN_PX) + 1);
    if (end - start > MAX_ROWS) {
      if (this.following) start = end - MAX_ROWS;
      else end = start + MAX_ROWS;
    }
    this.reconcile(start, end);
    const firstVisible = this.indexAt(top);
    const anchorShift = this.measure(start, firstVisible);
    this.computeOffsets();
    this.topSpacer.style.height = `${this.offsets[start]}px`;
    this.bottomSpacer.style.height = `${this.offsets[this.items.length]! - this.offsets[end]!}px`;
    if (this.following) this.scroller.scrollTop = this.scroller.scrollHeight;
    else if (anchorShift !== 0) this.scroller.scrollTop += anchorShift;
    this.lastScrollTop = this.scroller.scrollTop;
  }

  private reconcile(start: number, end: number): void {
    const wanted = new Set<string>();
    for (let i = start; i < end; i++) wanted.add(this.items[i]!.id);
    for (const [id, row] of this.rows) {
      if (wanted.has(id)) continue;
      this.resizeObserver.unobserve(row.wrapper);
      row.wrapper.remove();
      this.rows.delete(id);
    }
    let cursor: ChildNode | null = this.body.firstChild;
    for (let i = start; i < end; i++) {
      const item = this.items[i]!;
      let row = this.rows.get(item.id);
      if (!row) {
        const element = this.renderer.create(item);
        const wrapper = h('div', { class: 'vl-row', role: 'listitem', 'data-id': item.id }, element);
        row = { item, wrapper, element };
        this.rows.set(item.id, row);
        this.resizeObserver.observe(wrapper);
      } else if (row.item !== item) {
        const element = this.renderer.update(row.element, item, row.item);
        if (element !== row.element) row.wrapper.replaceChild(element, row.element);
        row.element = element;
        row.item = item;
      }
      if (row.wrapper === cursor) cursor = cursor.nextSibling;
      else this.body.insertBefore(row.wrapper, cursor);
    }
  }

  /** Records real heights; returns how much rows above the first visible one grew (to keep the view still). */
  private measure(start: number, firstVisible: number): number {
    let shift = 0;
    for (let i = start; i < start + this.rows.size && i < this.items.length; i++) {
      const item = this.items[i]!;
      const row = this.rows.get(item.id);
      if (!row) break;
      // A row not laid out (hidden) says nothing of its height.
      if (row.wrapper.getClientRects().length === 0) continue;
      const height = row.wrapper.offsetHeight;
      const before = this.heightOf(item);
      if (height !== before) {
        if (i < firstVisible) shift += height - before;
        this.heights.set(item.id, height);
      }
    }
    return shift;
  }
}
