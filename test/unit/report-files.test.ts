import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ReportFiles } from '../../src/extension/report/reportFiles';
import type { ResultsPanel } from '../../src/extension/results/panel';

// The editor's report files: private, and none outlives its use (docs/limits.md, large reports).

function fakePanel(): { panel: ResultsPanel; close: () => void } {
  const listeners: (() => void)[] = [];
  const panel = { onDidDispose: (l: () => void) => listeners.push(l) } as unknown as ResultsPanel;
  return { panel, close: () => listeners.forEach((l) => l()) };
}

test('a run report file lives in a private folder and goes when its table shows another run or closes', () => {
  const files = new ReportFiles();
  const first = files.next();
  const second = files.next();
  assert.notEqual(first, second);
  assert.equal(dirname(first), dirname(second));
  assert.equal(statSync(dirname(first)).mode & 0o777, 0o700, 'the folder is readable by the user alone');
  writeFileSync(first, 'a');
  writeFileSync(second, 'b');
  const { panel, close } = fakePanel();
  files.shownIn(panel, first);
  files.shownIn(panel, first);
  assert.ok(existsSync(first), 'shown again: kept');
  files.shownIn(panel, second);
  assert.ok(!existsSync(first), 'the table shows another run: the earlier file went');
  assert.ok(existsSync(second));
  close();
  assert.ok(!existsSync(second), 'the table closed: its file went');
  const third = files.next();
  writeFileSync(third, 'c');
  files.dispose();
  assert.ok(!existsSync(dirname(third)), 'the extension stopped: the folder went');
});
