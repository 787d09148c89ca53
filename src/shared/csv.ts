// The page writes CSV (a row copied as tab-separated text) with the product's one CSV writer.
export { quoteField } from '../core/csv/write';
