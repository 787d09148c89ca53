import { addDays, formatGatewayDate, todayLocal } from '../../src/core/dates';
import { defaultWindow, forecastBatch } from '../../src/core/forecast';
import { readBatch } from '../../src/core/rules/batch';
import { generateBatch } from './generate';
const today = todayLocal();
let i = 0;
const text = generateBatch(100000).replace(/;month;1;;31\.12\.2031;12;(19\.90)?;(5\.00)?;(15\.00)?;([\d.,]*);EUR;/g, (_m, fixed, from, to, seq) => {
  i++;
  const start = addDays(today, i % 61);
  const cents = String(1000 + (i % 90_000));
  const amount = `${cents.slice(0, -2)}.${cents.slice(-2)}`;
  const amounts = fixed ? `${amount};;;` : from ? `;${amount};${amount}9;` : seq ? `;;;${amount},${seq}` : ';;;';
  return `;month;1;${formatGatewayDate(start)};31.12.2031;12;${amounts};${['EUR', 'USD', 'GBP'][i % 3]};`;
});
const o = { ...defaultWindow(today), by: 'month' as const, today };
for (let k = 0; k < 6; k++) {
  const t = performance.now();
  const c = process.cpuUsage();
  forecastBatch(readBatch(text), o);
  const u = process.cpuUsage(c);
  console.log('recompute wall', (performance.now() - t).toFixed(0), 'cpu', ((u.user + u.system) / 1000).toFixed(0));
}
