// A PDF's links are shown, never followed by the page: a click on an outside link asks the host, which
// asks the user before opening anything. Links inside the document (to a page) keep working.
export function guardLinks(container: HTMLElement, open: (url: string) => void): void {
  const onClick = (e: MouseEvent) => {
    const link = (e.target as Element | null)?.closest?.('a');
    if (!link || !container.contains(link)) return;
    const href = link.getAttribute('href') ?? '';
    // pdf.js writes in-document destinations as "#..." and handles them itself.
    if (href.startsWith('#') || href === '') return;
    e.preventDefault();
    e.stopPropagation();
    if (e.type === 'click') open(link.href);
  };
  // Capture phase: before pdf.js's own handlers and before the browser's navigation.
  container.addEventListener('click', onClick, true);
  container.addEventListener('auxclick', onClick, true);
}
