// The column header's context menu (right-click, the Menu key or Shift+F10 on a header): pin or unpin
// the column, sort it. A real menu for assistive technology: role=menu, arrow keys move, Enter or Space
// chooses, Escape closes and gives the focus back to where it was.
import { el } from './dom';

export interface MenuItem {
  label: string;
  id: string;
  run(): void;
}

export class ColumnMenu {
  private element: HTMLElement | undefined;
  private returnFocus: HTMLElement | undefined;

  constructor(private readonly host: HTMLElement) {
    document.addEventListener('mousedown', (e) => {
      if (this.element && !this.element.contains(e.target as Node)) this.close(false);
    });
  }

  get isOpen(): boolean {
    return this.element !== undefined;
  }

  open(items: MenuItem[], at: { x: number; y: number }, label: string, returnFocus: HTMLElement): void {
    this.close(false);
    this.returnFocus = returnFocus;
    const menu = el('div', { class: 'menu', role: 'menu', 'aria-label': label, tabindex: '-1' });
    const buttons = items.map((item) => {
      const b = el('button', { type: 'button', role: 'menuitem', class: 'menuitem', id: `menu-${item.id}`, tabindex: '-1' }, item.label);
      b.addEventListener('click', () => {
        this.close(true);
        item.run();
      });
      return b;
    });
    for (const b of buttons) menu.append(b);
    menu.addEventListener('keydown', (e) => {
      const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
      let handled = true;
      if (e.key === 'ArrowDown') buttons[(i + 1) % buttons.length].focus();
      else if (e.key === 'ArrowUp') buttons[(i - 1 + buttons.length) % buttons.length].focus();
      else if (e.key === 'Home') buttons[0].focus();
      else if (e.key === 'End') buttons[buttons.length - 1].focus();
      else if (e.key === 'Escape' || e.key === 'Tab') this.close(true);
      else handled = false;
      if (handled) {
        e.preventDefault();
        e.stopPropagation();
      }
    });
    this.host.append(menu);
    // Kept inside the window: a menu opened at the right edge opens to the left.
    const box = this.host.getBoundingClientRect();
    const x = Math.max(0, Math.min(at.x - box.left, box.width - menu.offsetWidth - 4));
    const y = Math.max(0, Math.min(at.y - box.top, box.height - menu.offsetHeight - 4));
    menu.style.left = `${x}px`;
    menu.style.top = `${y}px`;
    this.element = menu;
    buttons[0]?.focus();
  }

  close(restoreFocus: boolean): void {
    if (!this.element) return;
    this.element.remove();
    this.element = undefined;
    if (restoreFocus) this.returnFocus?.focus({ preventScroll: true });
  }
}
