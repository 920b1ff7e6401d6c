#include "probe/stipulation.h"

#include "rules/text.h"

namespace feerie {

namespace {

const char* colour_name(Color c) { return c == WHITE ? "white" : "black"; }

}  // namespace

std::string Stipulation::header_name() const {
  if (kind == StipulationKind::DirectMate) return "#";
  std::string name = kind == StipulationKind::Helpmate ? "h#:" : "s#:";
  return name.append(colour_name(mated));
}

std::string Stipulation::file_tag() const {
  if (kind == StipulationKind::DirectMate) return "";
  std::string tag = kind == StipulationKind::Helpmate ? ".help-" : ".self-";
  return tag.append(colour_name(mated));
}

Expected<StipulationKind> parse_stipulation_kind(std::string_view text) {
  if (text == "#") return StipulationKind::DirectMate;
  if (text == "h#") return StipulationKind::Helpmate;
  if (text == "s#") return StipulationKind::Selfmate;
  return error(ErrorKind::InvalidArgument, "unknown stipulation '" + printable_excerpt(text, 40) +
                                               "' (known: # for direct mate, h# for helpmate, s# for selfmate)");
}

Expected<Color> parse_mated_colour(std::optional<std::string_view> text, StipulationKind kind) {
  if (!text) return kind == StipulationKind::Selfmate ? WHITE : BLACK;
  if (*text == "white") return WHITE;
  if (*text == "black") return BLACK;
  return error(ErrorKind::InvalidArgument,
               "the mated side is white or black, not '" + printable_excerpt(*text, 40) + "'");
}

namespace {

const Stipulation Every[] = {Stipulation::direct_mate(), Stipulation::helpmate(WHITE), Stipulation::helpmate(BLACK),
                             Stipulation::selfmate(WHITE), Stipulation::selfmate(BLACK)};

}  // namespace

Expected<Stipulation> Stipulation::parse_header_name(std::string_view name) {
  for (Stipulation s : Every)
    if (s.header_name() == name) return s;
  return error(ErrorKind::Corruption, "unknown stipulation '" + std::string(name) + "'");
}

Expected<std::pair<std::string, Stipulation>> split_table_stem(std::string_view stem) {
  const std::size_t dot = stem.find('.');
  if (dot == std::string_view::npos) return std::pair{std::string(stem), Stipulation::direct_mate()};
  const std::string_view tag = stem.substr(dot);
  for (Stipulation s : Every)
    if (s.kind != StipulationKind::DirectMate && s.file_tag() == tag)
      return std::pair{std::string(stem.substr(0, dot)), s};
  std::string message = "'";
  message.append(tag).append("' names no stipulation (known: .help-white, .help-black, .self-white, .self-black)");
  return error(ErrorKind::InvalidArgument, message);
}

}  // namespace feerie
