// Board diagrams as SVG (`feerie diagram`, the viewer of `feerie serve`): a pure function
// from a position to a self-contained SVG document. No fonts beyond the generic
// `sans-serif` family, no images, no external references: every piece is drawn here from
// simple shapes (the grasshopper as the problemists' upside-down queen, the locust as an
// insect), a magic unit carries a star in the top right corner of its square.
//
// The document is meant to be read by programs too (tests, the viewer's script):
// - each square is `<rect class="square light|dark" data-square="e4" …/>` (64 of them);
// - each unit is `<g class="piece" data-piece="wK" data-square="e1" data-magic="false" …>`
//   (colour `w`/`b`, then the FEN letter in upper case), its magic star a
//   `<polygon class="magic-mark" …/>` inside it;
// - coordinates are `<text class="coordinate">`, the side to move a
//   `<circle class="side-to-move" data-side="white|black" …/>` with a caption
//   `<text class="caption">White to move (2+1) · #3 · madrasi-ri</text>`: the side to
//   move, the units of each side as problemists count them (White+Black), then the
//   stipulation and the condition when given.
#pragma once

#include <string>

#include "rules/position.h"

namespace feerie::diagram {

// The sizes a drawing may have (`diagram --size`, the viewer's `size=`).
inline constexpr int MinSize = 16;
inline constexpr int MaxSize = 10000;

struct DiagramOptions {
  int size = 360;           // width and height of the drawing in pixels (it is square)
  std::string condition;    // named in the caption when not empty
  std::string stipulation;  // "#3", "h#2": in the caption when not empty
};

// The SVG document of `pos` (White at the bottom). Deterministic: the same position and
// options give the same bytes.
std::string diagram_svg(const Position& pos, const DiagramOptions& options = {});

}  // namespace feerie::diagram
