/**
 * How large the agent's photo and logo are kept for the printed net sheet (finding 4 of the
 * security audit of 2026-11-26: a 1200 px noisy logo made a 5.7 MB PDF that took seconds to build).
 * The sheet draws the photo in a 72 pt box and the logo in a 120 x 60 pt one; a print copy of about
 * 2.5 pixels a point is sharp on paper. The copies are made once, when the image is uploaded.
 */
export const PRINT_SIDES = { photo: 216, logo: 300 } as const;
