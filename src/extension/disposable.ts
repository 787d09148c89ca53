import type * as vscode from 'vscode';

// The lifecycle every long-lived editor object shares: what it creates it registers, and disposing it
// disposes those in reverse order, once. Something registered after disposal is disposed at once, so a
// late registration (an async start finishing after the window closed) cannot leak.
export abstract class Disposable implements vscode.Disposable {
  private readonly owned: vscode.Disposable[] = [];
  private disposed = false;

  protected get isDisposed(): boolean {
    return this.disposed;
  }

  protected register<T extends vscode.Disposable>(disposable: T): T {
    if (this.disposed) disposable.dispose();
    else this.owned.push(disposable);
    return disposable;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of this.owned.splice(0).reverse()) {
      try {
        d.dispose();
      } catch {
        // One failing disposal must not keep the others alive.
      }
    }
  }
}
