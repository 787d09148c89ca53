// Which rows are in view, for rows of one fixed height. A general virtualiser (TanStack Virtual, used
// here before) keeps a measurement object per row and rebuilds them all whenever the row count changes:
// at a million rows that is a million objects and tens of milliseconds each time a piece of the file
// arrives or a sort or search changes the view. With one row height, the rows in view are arithmetic.

/**
 * Browsers cap how tall an element can be (Chromium about 33.5 million pixels, Firefox about 17.9
 * million): at 24 px a row, a table of 1.4 million rows would end there. Past this height the scrolled
 * content stays this tall and the scroll position maps to rows by proportion, so every row of a
 * five-million-row report is reachable; below it, scrolling is plain pixels as before.
 */
export const MAX_SCROLL_HEIGHT = 15_000_000;

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

  /** Height of the rows' part of the scrolled content: their real height, up to MAX_SCROLL_HEIGHT. */
  get totalSize(): number {
    return Math.min(this.count * this.rowHeight, MAX_SCROLL_HEIGHT);
  }

  /**
   * Rows' pixels per scrolled pixel: 1, or more when the content is capped. Chosen so that the largest
   * scroll position shows the last row at the bottom, exactly as an uncapped table would.
   */
  private scale(): number {
    const real = this.count * this.rowHeight;
    const shown = this.totalSize;
    const room = shown + this.margin() - this.scroller.clientHeight;
    return real <= shown || room <= 0 ? 1 : 1 + (real - shown) / room;
  }

  items(): RowItem[] {
    if (this.count === 0) return [];
    const m = this.margin();
    const h = this.rowHeight;
    const scrolled = this.scroller.scrollTop;
    // Where the rows would be scrolled to without the cap, and how far that is past the real position.
    const virtual = scrolled * this.scale();
    const shift = virtual - scrolled;
    const top = virtual - m;
    const first = Math.max(0, Math.floor(top / h) - this.overscan);
    const last = Math.min(this.count - 1, Math.ceil((top + this.scroller.clientHeight) / h) + this.overscan);
    const out: RowItem[] = [];
    for (let i = first; i <= last; i++) out.push({ index: i, start: m + i * h - shift });
    return out;
  }

  /** Scrolls just enough for row `index` to be fully in view below the header. */
  scrollToIndex(index: number): void {
    const m = this.margin();
    const rowTop = m + index * this.rowHeight;
    const rowBottom = rowTop + this.rowHeight;
    const s = this.scroller;
    const k = this.scale();
    const view = s.scrollTop * k;
    // Scaled, one scrolled pixel moves the rows k pixels: round towards showing the whole row.
    if (rowTop - m < view) s.scrollTop = Math.floor((rowTop - m) / k);
    else if (rowBottom > view + s.clientHeight) s.scrollTop = Math.ceil((rowBottom - s.clientHeight) / k);
    this.onChange();
  }

  dispose(): void {
    this.scroller.removeEventListener('scroll', this.onScroll);
    this.observer.disconnect();
  }
}
