// The page reads report CSV with the core's one report reader (through src/shared), the same reader the
// host uses to check a report and to reconcile it.
export { CsvReader, pieceOfRows, readDetached, unescape, type DetachedRecords, type Piece } from '../src/shared/reportReader';
