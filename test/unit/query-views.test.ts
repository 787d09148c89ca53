import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reportBody } from '../../src/core/gateway/client';
import { newReportTemplate, parseReportTemplate } from '../../src/core/gateway/reportTemplate';
import { isHostToPage, isPageToHost } from '../../src/shared/resultsProtocol';
import { completionsAt } from '../../webview-ui/query/complete';
import { defaultAmount } from '../../webview-ui/query/bar';

const template = (views: unknown) => JSON.stringify({ ...newReportTemplate(), reportIdentifier: 'transactions', views }, null, 2);

describe('saved views in a report template', () => {
  it('are checked by the one schema, each problem with its place', () => {
    const good = parseReportTemplate(
      template([{ name: 'EUR by day', where: 'Currency = "EUR"', groupBy: ['Currency'], by: 'day', sum: ['Amount'] }]),
    );
    assert.ok(good.ok);
    const bad = parseReportTemplate(template([{ name: 'x', by: 'year', group_by: ['Currency'] }]));
    assert.ok(!bad.ok);
    assert.deepEqual(
      bad.problems.map((p) => p.message),
      ['views.0.by "year" is not one of "day", "week", "month"', 'views.0: Unrecognized key: "group_by"'],
      'an unknown key in a view is refused (a typo would be lost)',
    );
    for (const p of bad.problems) assert.ok(p.line !== undefined, `${p.path} has a place`);
    const twice = parseReportTemplate(template([{ name: 'x' }, { name: 'x', count: true }]));
    assert.ok(!twice.ok);
    assert.deepEqual(
      twice.problems.map((p) => p.message),
      ['views: two views have the same name'],
    );
  });

  it('are never sent to the gateway', () => {
    const parsed = parseReportTemplate(template([{ name: 'v', count: true }]));
    assert.ok(parsed.ok);
    const body = JSON.parse(reportBody(parsed.template)) as Record<string, unknown>;
    assert.equal(body.views, undefined);
    assert.equal(body.reportIdentifier, 'transactions');
  });

  it('travel to the page only in the shape the page checks', () => {
    const view = {
      name: 'v',
      where: 'Amount > 1',
      groupBy: ['Currency'],
      by: 'week',
      sum: ['Amount'],
      currency: null,
      template: 't.report.json',
    };
    assert.ok(isHostToPage({ type: 'views', views: [view] }));
    assert.ok(!isHostToPage({ type: 'views', views: [{ ...view, by: 'year' }] }));
    assert.ok(!isHostToPage({ type: 'views', views: [{ ...view, template: undefined }] }));
    assert.ok(isPageToHost({ type: 'exportImage', dataUrl: 'data:image/png;base64,AAAA', suggestedName: 'chart.png' }));
    assert.ok(!isPageToHost({ type: 'exportImage', dataUrl: 'javascript:alert(1)', suggestedName: 'chart.png' }));
  });
});

describe('completion in the filter box', () => {
  const columns = ['Amount', 'Currency', 'Order description', 'Created_date', 'in'];

  it('offers the columns and keywords that start with the word typed, a name with spaces in backticks', () => {
    assert.deepEqual(completionsAt('Cur', 3, columns), {
      from: 0,
      to: 3,
      items: [{ label: 'Currency', insert: 'Currency', kind: 'column' }],
    });
    const ord = completionsAt('Amount > 5 and ord', 18, columns)!;
    assert.deepEqual(
      ord.items.map((i) => i.insert),
      ['`Order description`'],
    );
    assert.equal(ord.from, 15);
    const keyword = completionsAt('Currency = "EUR" an', 19, columns)!;
    assert.deepEqual(
      keyword.items.map((i) => i.insert),
      ['and '],
    );
    const st = completionsAt('Order_description st', 20, columns)!;
    assert.deepEqual(
      st.items.map((i) => i.label),
      ['starts with'],
    );
  });

  it('a column named like a keyword goes in backticks; inside text or after a number nothing is offered', () => {
    assert.deepEqual(
      completionsAt('i', 1, columns)!.items.map((i) => i.insert),
      ['`in`', 'in (', 'is empty ', 'is not empty '],
    );
    assert.equal(completionsAt('Currency = "Cur', 15, columns), undefined);
    assert.equal(completionsAt('Amount > 12', 11, columns), undefined);
    assert.equal(completionsAt('Amount > 5 ', 11, columns), undefined, 'nothing before a letter is typed');
    assert.equal(completionsAt('Amount > 5 ', 11, columns, true)!.items.length, columns.length, 'unless asked (Ctrl+Space)');
  });

  it('names that start with the word come before names that only hold it (Tab takes the first)', () => {
    const c = completionsAt('am', 2, ['Merchant_Name', 'Transaction_id', 'Amount'])!;
    assert.deepEqual(
      c.items.map((i) => i.label),
      ['Amount', 'Merchant_Name'],
    );
  });

  it('inside backticks, the rest of a column name', () => {
    const c = completionsAt('`Ord', 4, columns)!;
    assert.deepEqual([c.from, c.items.map((i) => i.insert)], [0, ['`Order description`']]);
  });

  it('the amount column Group by sums by default', () => {
    assert.equal(defaultAmount(['Id', 'AMOUNT', 'Currency']), 1);
    assert.equal(defaultAmount(['Id', 'Refund amount', 'Currency']), 1);
    assert.equal(defaultAmount(['Id', 'Currency']), 0);
  });
});
