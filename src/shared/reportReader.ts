// The one report reader (RFC 4180, fed in pieces), shared by the host and the results page.
export { CsvReader, pieceOfRows, unescape, type Piece } from '../core/csv/reportReader';
