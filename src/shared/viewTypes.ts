// The panels' view types, in a module of their own with no imports: the extension's entry registers a
// serializer for each at activation, and must not pull the results protocol (and the outcome table it
// derives its types from) into the small entry bundle to learn two strings.

export const VIEW_TYPE = 'paygate.results';
export const PDF_VIEW_TYPE = 'paygate.pdfReport';
