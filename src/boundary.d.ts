// A module that is not a module: each side's tsconfig maps the packages it must never use to this file
// (`paths`), so importing one fails to compile with TS2306 "is not a module" — the layout's arrows
// checked by the compiler, not by a regex. The declaration below only makes this a valid script.
declare const paygateBoundary: unique symbol;
