// What the page keeps in its state for rows held only in memory: worked out once per version of the
// rows (a save follows every sort, search and grouping), and again as soon as the rows change.
import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { Dataset } from '../../webview-ui/dataset';
import { persistedState } from '../../webview-ui/persist';
import { INLINE_STATE_LIMIT, type ViewState } from '../../src/shared/resultsProtocol';

const view: ViewState = { sorting: null, filters: {}, search: '', widths: {}, scrollTop: 0, pinned: [] };
const save = (data: Dataset) => persistedState({ title: 't', source: { kind: 'inline' }, data, view });

describe("the page's kept rows", () => {
  it('keeps the rows as they are at each save: rows added and a new table are seen', () => {
    const data = new Dataset();
    data.reset(['a', 'b']);
    data.append([['1', 'x']]);
    assert.deepEqual(save(data).table?.rows, [['1', 'x']]);
    data.append([['2', 'y']]);
    assert.deepEqual(
      save(data).table?.rows,
      [
        ['1', 'x'],
        ['2', 'y'],
      ],
      'rows added after a save',
    );
    data.reset(['c']);
    data.append([['3']]);
    assert.deepEqual(save(data).table, { columns: ['c'], rows: [['3']] }, 'a new table');
  });

  it('keeps no rows past the limit, at every save, and masks card numbers in those it keeps', () => {
    const data = new Dataset();
    data.reset(['v']);
    data.append([['4111111111111111']]);
    assert.deepEqual(save(data).table?.rows, [['411111******1111']]);
    const long = 'x'.repeat(1000);
    data.append(Array.from({ length: INLINE_STATE_LIMIT / 1000 }, () => [long]));
    assert.equal(save(data).table, undefined);
    assert.equal(save(data).table, undefined, 'the second save says the same');
  });
});
