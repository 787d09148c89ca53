import { prepareSubmission } from '../../src/core/gateway';
import { saidText } from '../../src/core/output';
import { guardedSend, Ledger } from '../../src/core/ledger';
import { benchEntry } from './ledgerHistory';

// A ledger in `dir` holding one accepted send of `text` as the file `file` (its row keys kept, as a real
// send keeps them), for `paygate diff FILE --against last`. Nothing is sent anywhere.

export async function recordSend(dir: string, file: string, text: string): Promise<void> {
  const prepared = prepareSubmission(text);
  if (prepared.refusal) throw new Error(saidText(prepared.refusal.problem));
  const result = await guardedSend({
    ledger: new Ledger(dir),
    entry: { ...benchEntry(0, 'diff', prepared.rowCount), file, contentHash: prepared.contentHash },
    batch: prepared.lint.batch,
    legacyHashes: prepared.legacyHashes,
    send: async () => 'sent',
    completion: () => ({ outcome: 'accepted', serialNumbers: ['bench-1'] }),
  });
  if (result.status !== 'sent') throw new Error(`the bench send was not recorded: ${result.status}`);
}
