// The page masks card data in rows it parses itself (a CSV file or report streamed into the panel)
// with the product's one masking module; this is the page's only way to it.
export { rowMasker } from '../core/output';
