import { isSaid, said, typed, type Said } from '../../core/output';
import type { LogLine } from '../../shared/lintProtocol';
import { log } from '../log';

/**
 * A line the language server sent for the log (LOG_NOTIFICATION): a `Said` by its shape, which the log's floor
 * checks value by value; anything else is free text, read whole.
 */
export function serverLogLine(p: LogLine | null): void {
  const line: Said = isSaid(p?.line) ? p.line : said`${typed.text(JSON.stringify(p?.line ?? null))}`;
  if (p?.level === 'warn') log().warn(line);
  else log().error(line);
}
