// Every diagnostic code has a batch that gives it (test/fixtures/lint-cases/triggers.ts, a total record
// over the codes, so a new code without one fails the type check), and that batch gives it: the
// generators of the property tests start from these batches, so a missing or wrong trigger fails here,
// every run, before any random search.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { lint } from '../../src/core/rules/lint';
import { CodeInfo, Codes, type Code } from '../../src/core/rules/codes';
import { GATEWAY_ACCEPTS, LintErrorCodes } from '../../src/local-gateway/errorCodes';
import { TODAY } from '../fixtures/lint-cases/helpers';
import { OUTSIDE_ONE_TEXT, TRIGGERS } from '../fixtures/lint-cases/triggers';

describe('a trigger for every code', () => {
  for (const code of Object.values(Codes) as Code[]) {
    const trigger = TRIGGERS[code];
    if ('outside' in trigger) continue;
    it(`${code}: its batch gives it`, () => {
      const { diagnostics } = lint(trigger.text, { today: TODAY, maxPayloadBytes: trigger.maxPayloadBytes });
      assert.ok(
        diagnostics.some((d) => d.code === code),
        `${code} not given; got ${JSON.stringify(diagnostics.map((d) => d.code))} for ${JSON.stringify(trigger.text)}`,
      );
    });
  }

  it('names only the codes that need git or a ledger as outside one file', () => {
    const outside = (Object.keys(TRIGGERS) as Code[]).filter((c) => 'outside' in TRIGGERS[c]);
    assert.deepEqual(outside.sort(), [Codes.alreadySent, Codes.cardDataInGit, Codes.cvvAfterSend, Codes.samePayer].sort());
    assert.ok(OUTSIDE_ONE_TEXT.includes(Codes.batchTooLarge));
  });

  it("the local gateway answers every error one file's lint gives with a number of its own, and never a warning", () => {
    const numbered = (Object.keys(LintErrorCodes) as Code[]).filter((c) => LintErrorCodes[c] !== null);
    const errors = (Object.keys(TRIGGERS) as Code[]).filter(
      (c) => CodeInfo[c].severity === 'error' && 'text' in TRIGGERS[c] && !GATEWAY_ACCEPTS.has(c),
    );
    assert.deepEqual(numbered.sort(), errors.sort());
    const numbers = numbered.map((c) => LintErrorCodes[c]);
    assert.equal(new Set(numbers).size, numbers.length, `a number used twice: ${numbers.join()}`);
  });
});
