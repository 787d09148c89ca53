// The only way the page creates elements: attributes via setAttribute and text via textContent, so a
// value from a report can never become markup.
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** `fn` once `ms` after the last call: a burst of calls (scrolling, resizing) does the work once. */
export function debounced(fn: () => void, ms: number): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    clearTimeout(timer);
    timer = setTimeout(fn, ms);
  };
}

/** What `acquireVsCodeApi()` gives a page: its one way to the host, and the state the editor keeps for it. */
export interface VsCodeApi<ToHost, State = unknown> {
  postMessage(message: ToHost): void;
  getState(): unknown;
  setState(state: State): void;
}
