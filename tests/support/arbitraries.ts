// fast-check arbitraries shared by the property tests.

import fc from "fast-check";

/** Any code point, lone surrogates included (much cheaper to build than fast-check's "binary" string unit). */
export const anyCodePoint = fc.integer({ min: 0, max: 0x10ffff }).map((codePoint) => String.fromCodePoint(codePoint));

/** Strings of every kind a user or a damaged file could produce. */
export const anyString = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: anyCodePoint }));
