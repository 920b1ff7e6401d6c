// What a table answers (issue 25): direct mate (the distance to mate with best play, SPEC 5),
// a helpmate with one colour mated (the fewest plies in which both sides together mate it,
// and the number of shortest solutions), or a selfmate with one colour mated (the fewest
// plies in which that colour forces the other to mate it, the other avoiding it). A
// material's helpmate and selfmate tables come in pairs, one per colour mated, in its
// stored orientation; a position of the other orientation is read from the table of the
// other colour.
//
// Names (docs/format.md, docs/stipulations.md):
//   header   "#" (format version 2 files, which do not write it), "h#:white", "h#:black",
//            "s#:white", "s#:black"
//   file     <material>.ftb, <material>.help-white.ftb, <material>.help-black.ftb,
//            <material>.self-white.ftb, <material>.self-black.ftb
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "rules/expected.h"
#include "rules/types.h"

namespace feerie {

enum class StipulationKind { DirectMate, Helpmate, Selfmate };

struct Stipulation {
  StipulationKind kind = StipulationKind::DirectMate;
  Color mated = BLACK;  // helpmate, selfmate: the colour mated

  static Stipulation direct_mate() { return {}; }
  static Stipulation helpmate(Color mated) { return {StipulationKind::Helpmate, mated}; }
  static Stipulation selfmate(Color mated) { return {StipulationKind::Selfmate, mated}; }
  static Stipulation of(StipulationKind kind, Color mated) { return {kind, mated}; }
  bool operator==(const Stipulation& o) const {
    return kind == o.kind && (kind == StipulationKind::DirectMate || mated == o.mated);
  }

  // As a table header says it.
  std::string header_name() const;
  // What the file name adds between the material and ".ftb".
  std::string file_tag() const;
  // A header's name back; Corruption for anything else.
  static Expected<Stipulation> parse_header_name(std::string_view name);
};

// A stipulation as people give it: "#" (direct mate), "h#" (helpmate), "s#" (selfmate);
// InvalidArgument, with the known ones, for anything else (`--stipulation`, the viewer's
// `stipulation=`, Python's `stipulation=`).
Expected<StipulationKind> parse_stipulation_kind(std::string_view text);
// The colour mated as people give it: "white", "black", or none for the stipulation's
// default (Black in a helpmate, White in a selfmate, as Popeye's h# and s# have them);
// InvalidArgument for anything else, "" included (`--mated ''` once read as the default).
Expected<Color> parse_mated_colour(std::optional<std::string_view> text, StipulationKind kind);

// The material name and stipulation of a table file's stem ("KQvKR.help-white");
// InvalidArgument when the stem has a tag that is none of the stipulations'.
Expected<std::pair<std::string, Stipulation>> split_table_stem(std::string_view stem);

}  // namespace feerie
