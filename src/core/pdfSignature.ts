// How a PDF is recognised by its bytes, for every face: the report reader (a report's answer, in memory or
// streamed to its file) and the editor's "Open Report File…". The spec puts the header `%PDF-` on the first
// line (ISO 32000-1, 7.5.2), and readers tolerate bytes before it: the PDF 1.4 reference's implementation
// notes (appendix H.3, note 3.4.1 "File Header") say Acrobat viewers require only that the header appear
// somewhere within the first 1,024 bytes. We accept the same, so a report with leading bytes is not
// "unrecognised" when run and then opened fine from disk.

const SIGNATURE = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** The signature may start at any of the first this many bytes. */
export const PDF_SIGNATURE_WINDOW = 1024;

/** How many leading bytes to read to decide (the window and the signature's own length). */
export const PDF_HEAD_BYTES = PDF_SIGNATURE_WINDOW + SIGNATURE.length - 1;

/** Whether `bytes` (a whole content or its first PDF_HEAD_BYTES) holds `%PDF-` starting in the first 1,024 bytes. */
export function hasPdfSignature(bytes: Uint8Array): boolean {
  const last = Math.min(bytes.length - SIGNATURE.length, PDF_SIGNATURE_WINDOW - 1);
  for (let i = 0; i <= last; i++) {
    let k = 0;
    while (k < SIGNATURE.length && bytes[i + k] === SIGNATURE[k]) k++;
    if (k === SIGNATURE.length) return true;
  }
  return false;
}
