import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSubmit } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import { ownPayers } from '../fixtures/ledger/payers';
import { startLocalGateway } from '../../src/local-gateway';
import { gatewayOrderId } from '../../src/core/orderId';
import type { Suite } from './team';

// The fault suite's trials of a row's identity (issue 37): the same ids as a spreadsheet may write them
// (whitespace, a BOM, invisible characters, NFD of an NFC id) are refused as already sent; the same payers
// (cards and schedules) under new ids as the gateway reads them (-RENEW appended, lower case, a look-alike
// letter, a compatibility form NFC keeps) are refused as same-payer until --allow-same-payer; and a local
// gateway reached through a symlinked state directory is the same local gateway. Each trial counts, at the
// gateway, payments per id and per payer: none created twice without the explicit flag.

type Submit = (file: string, extra?: string[], data?: string) => Promise<{ code: number; out: string; err: string }>;

/** The batch `tag` with each client-orderid rewritten by `id` (the cards stay: the same payers). */
function withIds(s: Suite, tag: string, id: (sent: string) => string): { file: string; hash: string } {
  return s.batch(tag, (t) => t.replace(new RegExp(`F${tag}-\\d+`, 'g'), (sent) => id(sent)));
}

/**
 * A batch sent, then its rows under their ids as a spreadsheet may write them (whitespace, a BOM, a
 * zero-width space, a no-break space, a tab; NFD of an id sent in NFC, and NFC of one sent in NFD): refused
 * (exit 2, already sent), nothing created twice.
 */
export async function idVariantTrials(s: Suite, submit: Submit): Promise<void> {
  const variants: [string, (id: string) => string, (id: string) => string][] = [
    ['a trailing space', (id) => id, (id) => `${id} `],
    ['a no-break space', (id) => id, (id) => `\u00a0${id}`],
    ['a tab', (id) => id, (id) => `\t${id}`],
    ['a BOM inside', (id) => id, (id) => `${id.slice(0, 2)}\ufeff${id.slice(2)}`],
    ['a zero-width space', (id) => id, (id) => `${id}\u200b`],
    ['NFD of an id sent in NFC', (id) => `${id}-CAFÉ`.normalize('NFC'), (id) => `${id}-CAFÉ`.normalize('NFD')],
    ['NFC of an id sent in NFD', (id) => `${id}-NAÏVE`.normalize('NFD'), (id) => `${id}-NAÏVE`.normalize('NFC')],
  ];
  for (const [what, sent, variant] of variants) {
    const tag = `i${s.trial()}`;
    const { hash } = withIds(s, tag, sent);
    s.standIn.plan = ['ok'];
    const file = join(s.dir, `${tag}.rpcsv`);
    const first = await submit(file);
    s.check(first.code === 0, `${what}: the first submit exited ${first.code} (${first.err})`);
    withIds(s, tag, variant);
    const again = await submit(file);
    s.check(
      again.code === 2 && /already sent/.test(again.err),
      `${what}: the ids sent again were ${again.code === 2 ? 'refused without saying so' : 'sent'} (${again.err})`,
    );
    s.noDoubles(hash, what);
  }
}

/**
 * A batch sent, then the same cards and schedules under ids the gateway reads as other ids: refused (exit
 * 2, same-payer, naming the earlier id), nothing created; then sent on purpose with --allow-same-payer.
 */
export async function samePayerTrials(s: Suite, submit: Submit): Promise<void> {
  const variants: [string, (id: string) => string][] = [
    ['-RENEW appended', (id) => `${id}-RENEW`],
    ['lower case', (id) => id.toLowerCase()],
    ['a look-alike letter (Cyrillic Е for E)', (id) => id.replace('F', '\u0415')],
    ['a full-width letter (NFC keeps it)', (id) => id.replace('F', '\uFF26')],
  ];
  for (const [what, renamed] of variants) {
    const tag = `sp${s.trial()}`;
    const { file } = s.batch(tag);
    s.standIn.plan = ['ok'];
    const first = await submit(file);
    s.check(first.code === 0, `same payer, ${what}: the first submit exited ${first.code} (${first.err})`);
    const { hash } = withIds(s, tag, renamed);
    const refused = await submit(file);
    s.check(
      refused.code === 2 && /same-payer/.test(refused.err) && refused.err.includes(`"F${tag}-0001"`),
      `same payer, ${what}: ${refused.code === 2 ? 'refused without naming the earlier id' : `exit ${refused.code}`} (${refused.err})`,
    );
    s.check(s.standIn.count(hash) === 0, `same payer, ${what}: the renamed batch reached the gateway without the flag`);
    s.standIn.samePayerAllowed.add(hash);
    const allowed = await submit(file, ['--allow-same-payer']);
    s.check(allowed.code === 0, `same payer, ${what}: --allow-same-payer exited ${allowed.code} (${allowed.err})`);
    s.noDoubles(hash, `same payer, ${what}`);
  }
}

/**
 * The local gateway (its own state directory), sent to once; then through a symlink to that directory
 * (PAYGATE_STATE_DIR), the same file, the edited file, and the same payers under new ids: each refused
 * (duplicate, already sent, same-payer), and the local gateway holds every id and every card once.
 */
export async function symlinkedStateTrials(s: Suite): Promise<void> {
  const home = mkdtempSync(join(s.dir, 'symlinked-'));
  const state = join(home, 'state');
  mkdirSync(state);
  symlinkSync(state, join(home, 'link'), 'dir');
  const gw = await startLocalGateway({ stateDir: state, port: 0 });
  const run = async (file: string, stateDir: string) => {
    let err = '';
    const env = { ...s.env(join(home, 'data')), PAYGATE_STATE_DIR: stateDir };
    const ctx = testContext({ stdout: () => undefined, stderr: (t) => void (err += t), env, cwd: s.dir });
    return { code: await runSubmit([file, '--env', 'local', '--base-url', gw.baseUrl], ctx), err };
  };
  try {
    const tag = `ln${s.trial()}`;
    const file = join(home, `${tag}.rpcsv`);
    const text = ownPayers(readFileSync(s.batch(tag).file, 'utf8'), `${tag}-local`);
    writeFileSync(file, text);
    const first = await run(file, state);
    s.check(first.code === 0, `symlinked state: the first submit exited ${first.code} (${first.err})`);
    const shapes: [string, string, RegExp][] = [
      ['the same file', text, /already sent|same content/],
      ['the edited file', text.replace('Gym membership, monthly', 'Gym membership (monthly)'), /already sent/],
      ['the same payers under new ids', text.replace(new RegExp(`F${tag}-(\\d+)`, 'g'), `F${tag}-$1-RENEW`), /same-payer/],
    ];
    for (const [what, body, said] of shapes) {
      s.trial();
      writeFileSync(file, body);
      const again = await run(file, join(home, 'link'));
      s.check(again.code === 2 && said.test(again.err), `symlinked state, ${what}: exit ${again.code} (${again.err})`);
    }
    const ids = new Map<string, number>();
    const cards = new Map<string, number>();
    for (const p of gw.payments()) {
      const id = gatewayOrderId(p['client-orderid']);
      ids.set(id, (ids.get(id) ?? 0) + 1);
      cards.set(p.maskedCard, (cards.get(p.maskedCard) ?? 0) + 1);
    }
    s.check(
      ids.size === 4 && cards.size === 4,
      `symlinked state: the local gateway holds ${ids.size} ids and ${cards.size} cards, want 4 each`,
    );
    s.check(
      [...ids.values(), ...cards.values()].every((n) => n === 1),
      'symlinked state: the local gateway created an id or a payer twice',
    );
  } finally {
    await gw.close();
    rmSync(home, { recursive: true, force: true });
  }
}
