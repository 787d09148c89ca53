/** One `paygate` sub-command: its one-line summary for the help list and its runner (returns exit code). */
export interface Command {
  summary: string;
  run(args: string[]): Promise<number>;
}
