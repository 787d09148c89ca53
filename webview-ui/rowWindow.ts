// Which rows are in view, for rows of one fixed height. A general virtualiser (TanStack Virtual, used
// here before) keeps a measurement object per row and rebuilds them all whenever the row count changes:
// at a million rows that is a million objects and tens of milliseconds each time a piece of the file
// arrives or a sort or search changes the view. With one row height, the rows in view are arithmetic.

export interface RowItem {
  index: number;
  /** Top of the row in the scrolled content, header included. */
  start: number;
}

export class RowWindow {
  count = 0;
  private readonly observer: ResizeObserver;
  private readonly onScroll = () => this.onChange();

  constructor(
    private readonly scroller: HTMLElement,
    readonly rowHeight: number,
    private readonly overscan: number,
    /** Height of what sits above the first row in the scrolled content (the sticky header). */
    private readonly margin: () => number,
    private readonly onChange: () => void,
  ) {
    scroller.addEventListener('scroll', this.onScroll, { passive: true });
    this.observer = new ResizeObserver(() => this.onChange());
    this.observer.observe(scroller);
  }

  get totalSize(): number {
    return this.count * this.rowHeight;
  }

  items(): RowItem[] {
    if (this.count === 0) return [];
    const m = this.margin();
    const h = this.rowHeight;
    const top = this.scroller.scrollTop - m;
    const first = Math.max(0, Math.floor(top / h) - this.overscan);
    const last = Math.min(this.count - 1, Math.ceil((top + this.scroller.clientHeight) / h) + this.overscan);
    const out: RowItem[] = [];
    for (let i = first; i <= last; i++) out.push({ index: i, start: m + i * h });
    return out;
  }

  /** Scrolls just enough for row `index` to be fully in view below the header. */
  scrollToIndex(index: number): void {
    const m = this.margin();
    const rowTop = m + index * this.rowHeight;
    const rowBottom = rowTop + this.rowHeight;
    const s = this.scroller;
    if (rowTop - m < s.scrollTop) s.scrollTop = rowTop - m;
    else if (rowBottom > s.scrollTop + s.clientHeight) s.scrollTop = rowBottom - s.clientHeight;
    this.onChange();
  }

  dispose(): void {
    this.scroller.removeEventListener('scroll', this.onScroll);
    this.observer.disconnect();
  }
}
