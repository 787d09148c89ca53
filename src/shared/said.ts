// The pages' door to the floor of a `Said` (src/core/output/said.ts): a line the host posts with values in it
// (a status line, an export's or a save's end, why a file is not shown) is our words and typed values, and
// the page lays it out where it shows it, each value checked alone by its type, never the composed line.
export { joinSaid, said, saidText, typed, type Part } from '../core/output/said';
