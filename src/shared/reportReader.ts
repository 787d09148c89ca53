// The one report reader (RFC 4180, fed in pieces), shared by the host and the results page.
export { CsvReader, guessDelimiter, pieceOfRows, unescape, type CsvReaderOptions, type Piece } from '../core/csv/reportReader';
