// pdf.js's viewer components read the library from `globalThis.pdfjsLib` when their module is evaluated,
// so this module is imported first (ES modules evaluate in import order, and esbuild keeps that order).
import * as pdfjsLib from 'pdfjs-dist';

(globalThis as unknown as { pdfjsLib: typeof pdfjsLib }).pdfjsLib = pdfjsLib;

export { pdfjsLib };
