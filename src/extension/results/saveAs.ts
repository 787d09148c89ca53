// Save dialog → write → the page told: the one way a panel writes a file the user asked for (the table's
// rows and chart, the forecast's CSV, SVG or PNG, a PDF report). The page hears every end (no file picked,
// written, failed) and the log has every failure.
import * as vscode from 'vscode';
import { errorMessage } from '../../core/errorMessage';
import { log } from '../log';
import { ourWords, said, typed, type Said } from '../../core/output';

export interface SaveAs {
  /** The dialog: a file name in the first workspace folder, the filters, the button's words, a title. */
  suggestedName: string;
  filters: Record<string, string[]>;
  saveLabel?: string;
  title?: string;
  /** The file's bytes, made once a file is picked (a failure here is a failed save). */
  bytes: () => Uint8Array;
  /** Tells the page how it ended: a `Said`, which the page lays out value by value. */
  tell: (ok: boolean, message: Said) => Thenable<unknown>;
  /** The page's words: no file picked, written (to that path), failed (why); the path and the why are values. */
  words: { cancelled: Said; saved: (fsPath: string) => Said; failed: (why: string) => Said };
  /** A failure in the log: `${logAs} to FILE failed: why` ("Results panel: export"). */
  logAs: string;
  /** After the write and the page's word: a notification, a log line. */
  afterSave?: (target: vscode.Uri) => void;
}

export async function saveAs(s: SaveAs): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    ...(s.title !== undefined ? { title: s.title } : {}),
    defaultUri: folder ? vscode.Uri.joinPath(folder, s.suggestedName) : undefined,
    filters: s.filters,
    ...(s.saveLabel !== undefined ? { saveLabel: s.saveLabel } : {}),
  });
  if (!target) {
    await s.tell(false, s.words.cancelled);
    return;
  }
  try {
    await vscode.workspace.fs.writeFile(target, s.bytes());
    await s.tell(true, s.words.saved(target.fsPath));
    s.afterSave?.(target);
  } catch (err) {
    const message = errorMessage(err);
    log().error(said`${typed.text(s.logAs)} to ${typed.text(target.toString())} failed: ${typed.text(message)}`);
    await s.tell(false, s.words.failed(message));
  }
}

/** A canvas's `data:image/png;base64,…` as the PNG's bytes. */
export const dataUrlBytes = (dataUrl: string): Uint8Array => Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');

/** The words of an export (the table's and the forecast's). */
export const exportWords = (saved: (fsPath: string) => Said): SaveAs['words'] => ({
  cancelled: ourWords('Export cancelled.'),
  saved,
  failed: (why: string) => said`Export failed: ${typed.text(why)}`,
});
