import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runSplit } from '../fixtures/cli/commands';
import { testContext } from '../fixtures/cli/context';
import type { Fault } from './standIn';
import type { Suite } from './team';

// HTTP 413 in a run of parts (issue 37, item 8): a run of four parts in which one part (a seeded one) is
// answered 413 by a proxy in front of the gateway stops there, told "Rejected as too large", nothing of that
// part created. The re-run skips the parts the ledger records as accepted and sends that part once (the 413
// holds nothing back) and the rest: every part created once, no row twice (the suite's count by row).

type TooLargeSuite = Omit<Suite, 'root' | 'exited'> & {
  submit(file: string, extra?: string[]): Promise<{ code: number; out: string; err: string }>;
  /** The SHA-256 of the request body a batch's text is sent as (the stand-in counts by it). */
  bodyHash(text: string): string;
};

export async function tooLargePartsTrials(s: TooLargeSuite, n: number): Promise<void> {
  for (let i = 0; i < n && Date.now() < s.deadline; i++) {
    const tag = `t${s.trial()}`;
    const { file } = s.batch(tag);
    const partsDir = join(s.dir, tag);
    const split = await runSplit(
      [file, '--max-rows', '1', '--out-dir', partsDir],
      testContext({ env: s.env(join(s.dir, 'data')), cwd: s.dir }),
    );
    s.check(split === 0, `413 parts ${tag}: paygate split ended ${split}`);
    const parts = readdirSync(partsDir)
      .sort()
      .map((p) => join(partsDir, p));
    const hashes = parts.map((p) => s.bodyHash(readFileSync(p, 'utf8')));
    const k = Math.floor(s.random() * parts.length);
    const fault: Fault = i % 2 === 0 ? 'too-large-413-text' : 'too-large-413-html';
    const what = `413 parts ${tag} (${fault} on part ${k + 1})`;
    s.standIn.plan = [...parts.slice(0, k).map((): Fault => 'ok'), fault];
    const first = await s.submit(parts[0], parts.slice(1));
    s.check(first.code === 1, `${what}: the run ended ${first.code} (${first.out}${first.err})`);
    s.check(/^Rejected as too large \(HTTP 413\)/m.test(first.out), `${what}: told ${first.out}`);
    s.check(
      hashes.every((h, j) => s.standIn.count(h) === (j < k ? 1 : 0)),
      `${what}: the parts before it created once, it and the rest not`,
    );
    s.standIn.plan = [];
    const again = await s.submit(parts[0], parts.slice(1));
    s.check(again.code === 0, `${what}: the re-run ended ${again.code} (${again.err})`);
    hashes.forEach((h, j) => s.noDoubles(h, `${what}, part ${j + 1}`));
    s.check(
      hashes.every((h) => s.standIn.count(h) === 1),
      `${what}: after the re-run not every part was created once`,
    );
    s.check((s.standIn.received.get(hashes[k]) ?? 0) === 2, `${what}: the refused part was not sent exactly once more`);
  }
}
