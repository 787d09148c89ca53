// The one report reader (RFC 4180, fed in pieces), shared by the host and the results page (whose parse
// worker reads pieces from the middle of a file with readDetached).
export { CsvReader, pieceOfRows, readDetached, unescape, type DetachedRecords, type Piece } from '../core/csv/reportReader';
