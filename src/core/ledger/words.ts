import type { DamageMark } from './records';

// What every face says about a damaged ledger: the same words in the terminal and the editor.

export function damageText(d: DamageMark, ledgerFile: string): string {
  const where = ledgerFile === '' ? 'The submission ledger' : `The submission ledger ${ledgerFile}`;
  const which =
    d.contentHashes.length > 0 && d.unidentified === 0
      ? `the batch(es) named there (sha256 ${d.contentHashes.map((h) => h.slice(0, 12)).join(', ')}) may have been sent`
      : 'any batch may have been sent';
  return (
    `${where} was damaged: ${d.unreadableLines} unreadable line(s) were moved aside with the whole file to ${d.movedTo}; ` +
    `${d.keptLines} readable line(s) were kept. Earlier sends recorded in the unreadable part cannot be vouched for: ${which}. ` +
    'Check in the gateway what was created before sending again; nothing was sent.'
  );
}
