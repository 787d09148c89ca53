// Recurring payments on the simulated clock (docs/schedule.md: "The rules" and "On the local gateway").
// Dates and amounts come from the one schedule calculator, so the gateway charges exactly what the
// editor's preview promised.

import { addDays, compareDates, formatGatewayDate, parseGatewayDate, type CalendarDate } from '../core/dates';
import { gatewayOrderId } from '../core/orderId';
import { maskCardNumber, maskCardNumbers, maskStoredText } from '../core/output';
import { computeSchedule, scheduleInputFromRow, type Charge } from '../core/schedule/schedule';
import { formatThousandths } from '../core/amounts';
import { chargedAmount } from './amounts';
import { DueHeap } from './dueHeap';
import type { ChargeEvent, GatewayState, StoredPayment } from './types';

/** The longest single jump of the clock: ten years of daily charges is already more than anyone reads. */
export const MAX_ADVANCE_DAYS = 3660;

/**
 * The decline rule, documented in the README: every charge on a card number ending in 0 is declined.
 * Deterministic, so tests and demos can show the repeats counter counting failed charges.
 */
export function cardDeclines(cardNumber: string): boolean {
  return /0$/.test(cardNumber.trim());
}

export function gatewayToday(state: GatewayState): CalendarDate {
  const d = parseGatewayDate(state.today);
  if (!d) throw new Error('simulated date is not a DD.MM.YYYY date');
  return d;
}

function nextCharge(p: StoredPayment, today: CalendarDate): Charge | undefined {
  return computeSchedule(p.schedule, { today, limit: 1, fromIndex: p.nextIndex })[0];
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * Stops a schedule that has nothing left to charge: at once when the repeats counter reached
 * max-repeats-number, on the finish date when that ended it, right after the one charge of a one-off.
 */
function stopIfFinished(p: StoredPayment, day: CalendarDate): boolean {
  if (p.status !== 'active' || nextCharge(p, day) !== undefined) return false;
  const s = p.schedule;
  if (s.maxRepeats !== undefined && p.nextIndex >= s.maxRepeats) p.stopReason = 'max-repeats';
  else if (s.finishDate) {
    if (compareDates(day, s.finishDate) < 0) return false;
    p.stopReason = 'finish-date';
  } else p.stopReason = 'completed';
  p.status = 'stop';
  return true;
}

function makeCharge(state: GatewayState, p: StoredPayment, charge: Charge): ChargeEvent {
  const txId = state.nextTransactionId++;
  const seconds = txId % 3600; // a spread of times within the simulated morning, stable across reloads
  const amount = formatThousandths(chargedAmount(charge.amount, `${p['recurring-payment-id']}:${charge.index}`));
  const status = p.declines ? 'declined' : 'approved';
  const date = formatGatewayDate(charge.date);
  p.charges.push({
    transactionId: String(txId),
    index: charge.index,
    date,
    time: `09:${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`,
    amount,
    status,
  });
  p.nextIndex = charge.index + 1; // counts declined charges too (docs/schedule.md, "Index")
  return {
    transactionId: String(txId),
    'recurring-payment-id': p['recurring-payment-id'],
    'client-orderid': p['client-orderid'],
    index: charge.index,
    date,
    amount,
    currency: p.currency,
    status,
  };
}

/** The charges of `p` due on or before `day` and not yet made, oldest first. */
function dueCharges(p: StoredPayment, day: CalendarDate): Charge[] {
  const due: Charge[] = [];
  if (p.status !== 'active') return due;
  for (;;) {
    const batch = computeSchedule(p.schedule, { today: day, limit: 1000, fromIndex: p.nextIndex + due.length });
    for (const c of batch) {
      if (compareDates(c.date, day) > 0) return due;
      due.push(c);
    }
    if (batch.length < 1000) return due;
  }
}

/** Makes every charge of `p` due on or before `day`, oldest first. */
function chargeDue(state: GatewayState, p: StoredPayment, day: CalendarDate): ChargeEvent[] {
  return dueCharges(p, day).map((c) => makeCharge(state, p, c));
}

/** Moves the repeats counter past charges dated before `day`: they were never attempted, so never made. */
function skipPast(p: StoredPayment, day: CalendarDate): void {
  for (let guard = 0; guard < 100; guard++) {
    const batch = computeSchedule(p.schedule, { today: day, limit: 1000, fromIndex: p.nextIndex });
    const firstDue = batch.findIndex((c) => compareDates(c.date, day) >= 0);
    if (firstDue >= 0) {
      p.nextIndex = batch[firstDue].index;
      return;
    }
    if (batch.length === 0) return;
    p.nextIndex = batch[batch.length - 1].index + 1;
  }
}

export interface CreatedPayment {
  payment: StoredPayment;
  charges: ChargeEvent[];
}

/** Registers one CSV row as a recurring payment; charges due today are made at once (a start-date of today). */
export function createPayment(state: GatewayState, values: Record<string, string>, serial: string): CreatedPayment {
  const today = gatewayToday(state);
  const schedule = scheduleInputFromRow(values);
  // Pin the start: without start-date the schedule starts on the day of creation, not on every later "today".
  if (!schedule.startDate) schedule.startDate = today;
  const card = (values['credit-card-number'] ?? '').trim();
  const notifyUrl = (values['notify_url'] ?? '').trim();
  const callbackUrl = notifyUrl || (values['server_callback_url'] ?? '').trim();
  const payment: StoredPayment = {
    'recurring-payment-id': String(state.nextPaymentId++),
    'serial-number': serial,
    // An order id that is a card number is still a card number: kept masked, as every output shows it.
    // Keyed as the gateway reads an id (core/orderId.ts): trimmed of every kind of whitespace, invisible characters removed, NFC.
    'client-orderid': maskCardNumbers(gatewayOrderId(values['client-orderid'] ?? '')),
    rp_card_type: (values['rp_card_type'] ?? '').trim(),
    maskedCard: maskCardNumber(card),
    declines: cardDeclines(card),
    currency: (values['currency'] ?? '').trim(),
    order_desc: maskStoredText(values['order_desc'] ?? ''),
    ...(callbackUrl ? { callbackUrl, callbackColumn: notifyUrl ? ('notify_url' as const) : ('server_callback_url' as const) } : {}),
    schedule,
    createdDate: state.today,
    status: 'active',
    nextIndex: 0,
    charges: [],
  };
  state.payments.push(payment);
  skipPast(payment, today);
  const charges = chargeDue(state, payment, today);
  stopIfFinished(payment, today);
  return { payment, charges };
}

/** The most charges one advance makes; the clock stops at the end of the day that reached it. */
export const MAX_CHARGES_PER_ADVANCE = 100_000;
/**
 * The most charges one state directory keeps (memory and disk grow with them: about 0.4 KB each in
 * memory). Past it the clock stops where charges would be made; stop payments or use a new directory.
 */
export const MAX_STORED_CHARGES = 1_000_000;
/** Charges an advance lists in its answer; the rest are counted only. */
export const MAX_LISTED_CHARGES = 1000;

export interface AdvanceResult {
  from: string;
  today: string;
  /** The first MAX_LISTED_CHARGES charges made, in the order they were made. */
  charges: ChargeEvent[];
  chargeCount: number;
  stopped: string[];
  /** Set when MAX_CHARGES_PER_ADVANCE stopped the clock before the requested day. */
  truncated?: { requested: string; reason: string };
}

export interface AdvanceOptions {
  maxCharges?: number;
  /** Each charge as it is made (for callbacks); nothing else keeps the full list. */
  onCharge?: (payment: StoredPayment, event: ChargeEvent) => void;
  /** Collects every payment the advance changed (for the store's commit). */
  touched?: Set<StoredPayment>;
  /** Says why `maxCharges` stopped the clock (the caller knows which limit it passed). */
  reason?: (made: number, max: number) => string;
}

export function storedCharges(state: GatewayState): number {
  let n = 0;
  for (const p of state.payments) n += p.charges.length;
  return n;
}

/** The charge cap of the next advance: per advance, and what is left of the state directory's allowance. */
export function advanceAllowance(state: GatewayState): { maxCharges: number; reason: (made: number, max: number) => string } {
  const left = Math.max(0, MAX_STORED_CHARGES - storedCharges(state));
  if (left >= MAX_CHARGES_PER_ADVANCE)
    return {
      maxCharges: MAX_CHARGES_PER_ADVANCE,
      reason: (made) => `stopped after ${made} charges (at most ${MAX_CHARGES_PER_ADVANCE} per advance); advance again to continue`,
    };
  return {
    maxCharges: left,
    reason: (made) =>
      `stopped after ${made} charges: this state directory holds ${MAX_STORED_CHARGES} charges, the most the local gateway keeps; stop payments or start with a new --state directory`,
  };
}

/**
 * Moves the clock `days` forward, making the charges due in calendar order across payments (creation
 * order within a day), so transaction ids and callbacks read in the order the charges were made. The
 * charges are made one at a time from a heap of next charges, never listed all at once, and at most
 * `maxCharges` per call: past that the clock stops at the end of the day that reached it.
 */
export function advance(state: GatewayState, days: number, o: AdvanceOptions = {}): AdvanceResult {
  const from = state.today;
  const requested = addDays(gatewayToday(state), days);
  const max = o.maxCharges ?? MAX_CHARGES_PER_ADVANCE;
  const heap = new DueHeap();
  const nextDue = (p: StoredPayment, order: number) => {
    if (p.status !== 'active') return;
    const c = nextCharge(p, requested);
    if (c && compareDates(c.date, requested) <= 0) heap.push({ p, order, c });
  };
  state.payments.forEach((p, i) => nextDue(p, i));

  const charges: ChargeEvent[] = [];
  let count = 0;
  let target = requested;
  let lastDay: CalendarDate | undefined;
  for (let due = heap.peek(); due; due = heap.peek()) {
    if (count >= max && (lastDay === undefined || compareDates(due.c.date, lastDay) > 0)) {
      // Whole days only: the rest of the schedule waits for the next advance. Never before `from`.
      const today = gatewayToday(state);
      target = lastDay && compareDates(lastDay, today) > 0 ? lastDay : today;
      break;
    }
    heap.pop();
    const event = makeCharge(state, due.p, due.c);
    count++;
    lastDay = due.c.date;
    if (charges.length < MAX_LISTED_CHARGES) charges.push(event);
    o.touched?.add(due.p);
    o.onCharge?.(due.p, event);
    nextDue(due.p, due.order);
  }
  const stopped: string[] = [];
  for (const p of state.payments) {
    if (stopIfFinished(p, target)) {
      stopped.push(p['recurring-payment-id']);
      o.touched?.add(p);
    }
  }
  state.today = formatGatewayDate(target);
  const truncated =
    compareDates(target, requested) < 0
      ? {
          requested: formatGatewayDate(requested),
          reason: o.reason?.(count, max) ?? `stopped after ${count} charges (at most ${max} per advance); advance again to continue`,
        }
      : undefined;
  return { from, today: state.today, charges, chargeCount: count, stopped, ...(truncated ? { truncated } : {}) };
}

/** Manual stop (an operator's action); the schedule can be resumed with `reschedule`. */
export function stopPayment(p: StoredPayment): void {
  if (p.status === 'stop') return;
  p.status = 'stop';
  p.stopReason = 'manual';
}

/**
 * Resumes a stopped schedule (stop → active again). Charges already made are not made again, and
 * charges whose day passed while stopped are skipped rather than made late.
 */
export function reschedule(state: GatewayState, p: StoredPayment): ChargeEvent[] {
  if (p.status !== 'stop') return [];
  const today = gatewayToday(state);
  p.status = 'active';
  delete p.stopReason;
  skipPast(p, today);
  const charges = chargeDue(state, p, today);
  stopIfFinished(p, today);
  return charges;
}
