import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { parseGatewayDate } from '../../src/core/dates';
import { defaultWindow, forecastText } from '../../src/core/forecast';
import { isForecastHostToPage, isForecastPageToHost } from '../../src/shared/forecastProtocol';
import { toSeries } from '../../webview-ui/forecast/series';
import { chartSvg } from '../../webview-ui/forecast/svg';

const today = parseGatewayDate('01.01.2027')!;
const BATCH = [
  'client-orderid;rp_card_type;credit-card-number;currency;amount;amount-from;amount-to;period;interval;start-date',
  'a;SRC;4111111111111111;EUR;10.00;;;month;1;31.01.2027',
  'b;SRC;4111111111111111;USD;;5;20;week;1;01.02.2027',
  'c;SRC;4111111111111111;EUR;3;;;month;1;2027-01-01',
  'd;DST;6011111111111117;EUR;120.00;;;;;15.02.2027',
].join('\r\n');
const forecast = forecastText(BATCH, { ...defaultWindow(today), by: 'month', today });

describe('forecast protocol guards', () => {
  it('accept what each side sends and nothing shaped otherwise', () => {
    assert.ok(isForecastHostToPage({ type: 'forecast', file: 'a.rpcsv', generation: 1, forecast }));
    assert.ok(!isForecastHostToPage({ type: 'forecast', file: 'a.rpcsv', generation: 1, forecast: { ...forecast, by: 'year' } }));
    assert.ok(!isForecastHostToPage({ type: 'forecast', file: 'a.rpcsv', generation: -1, forecast }));
    const bad = { ...forecast, currencies: { EUR: [{ period: '2027-01', charges: '1', min: '1', max: '1' }] } };
    assert.ok(!isForecastHostToPage({ type: 'forecast', file: 'a.rpcsv', generation: 1, forecast: bad }));
    // Payouts are a series of their own: a payout bucket counts payouts, and a forecast without them is not one.
    const badPayout = { ...forecast, payouts: { EUR: [{ period: '2027-02', charges: 1, min: '1', max: '1' }] } };
    assert.ok(!isForecastHostToPage({ type: 'forecast', file: 'a.rpcsv', generation: 1, forecast: badPayout }));
    const { payouts: _none, ...noPayouts } = forecast;
    assert.ok(!isForecastHostToPage({ type: 'forecast', file: 'a.rpcsv', generation: 1, forecast: noPayouts }));
    assert.ok(isForecastPageToHost({ type: 'setBy', by: 'week' }));
    assert.ok(!isForecastPageToHost({ type: 'setBy', by: 'hour' }));
    assert.ok(isForecastPageToHost({ type: 'reveal', line: 3 }));
    assert.ok(!isForecastPageToHost({ type: 'reveal', line: 0 }));
    assert.ok(!isForecastPageToHost({ type: 'reveal', line: 1.5 }));
    assert.ok(isForecastPageToHost({ type: 'export', format: 'png', dataUrl: 'data:image/png;base64,AAAA' }));
    assert.ok(!isForecastPageToHost({ type: 'export', format: 'png', dataUrl: 'data:text/html;base64,AAAA' }));
    assert.ok(isForecastPageToHost({ type: 'export', format: 'svg', svg: '<svg/>' }));
    assert.ok(!isForecastPageToHost({ type: 'export', format: 'pdf' }));
    assert.ok(!isForecastPageToHost(null));
  });
});

describe('forecast chart series and SVG', () => {
  it('puts every currency on one axis of periods, with running totals and exact totals', () => {
    const s = toSeries(forecast);
    assert.deepEqual(s.periods.slice(0, 4), ['2027-01', '2027-02', '2027-03', '2027-04']);
    const usd = s.currencies.find((c) => c.currency === 'USD')!;
    assert.equal(usd.amounts[0], 0);
    assert.equal(usd.ranges[1], '20.00..80.00');
    assert.equal(usd.total.count, 48);
    assert.equal(
      usd.cumulative[usd.cumulative.length - 1],
      usd.amounts.reduce((a, b) => a + b, 0),
    );
    assert.deepEqual(s.currencies[0].total, { count: 12, min: '120.00', max: '120.00' });
    // The DST row is a payout series after the charges, never summed into EUR's charges.
    assert.deepEqual(
      s.currencies.map((c) => [c.label, c.kind, c.total.count, c.total.max]),
      [
        ['EUR', 'charges', 12, '120.00'],
        ['USD', 'charges', 48, s.currencies[1].total.max],
        ['EUR payouts', 'payouts', 1, '120.00'],
      ],
    );
  });

  it('draws one rect per bucket and a line per currency, with every text escaped', () => {
    const svg = chartSvg(toSeries(forecast), 'a <b>&"c"</b>', {
      foreground: '#000',
      background: '#fff',
      grid: '#ccc',
      colours: ['#00f', '#f80'],
    });
    assert.equal((svg.match(/<rect /g) ?? []).length, 1 + 12 + 11 + 1);
    assert.equal((svg.match(/<polyline /g) ?? []).length, 3);
    assert.match(svg, /<g fill="none" stroke="#00f" stroke-width="2"><title>EUR payouts<\/title>/, 'payouts are outlined bars');
    assert.ok(svg.includes('□ EUR payouts: 1 payout, 120.00'));
    assert.ok(svg.includes('a &lt;b&gt;&amp;&quot;c&quot;&lt;/b&gt;'));
    assert.ok(!svg.includes('<b>'));
  });
});
