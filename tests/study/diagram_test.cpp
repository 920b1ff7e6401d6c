// SVG diagrams (study/diagram.h) and `feerie diagram`: the document is well-formed XML,
// has the 64 squares, and each unit of the FEN at its square with its kind and magic mark.
#include "study/diagram.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/test_util.h"

namespace feerie {
namespace {

// One start (or empty) tag of the document, with its attributes.
struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;
  int depth = 0;
};

bool is_name_char(char c) { return std::isalnum((unsigned char)c) || c == '-' || c == '_' || c == ':' || c == '.'; }

// A tiny XML checker, enough for what the renderer writes: tags nest and close in order,
// there is one root, attribute values are quoted and not repeated, `&` starts one of the
// five predefined entities (or a numeric one), `<` only starts a tag. On success the
// elements in document order; on failure an empty list and `error` set.
std::vector<Element> parse_xml(const std::string& doc, std::string& error) {
  std::vector<Element> elements;
  std::vector<std::string> open;
  int roots = 0;
  auto check_entities = [&](const std::string& text) {
    for (std::size_t i = text.find('&'); i != std::string::npos; i = text.find('&', i + 1)) {
      std::size_t end = text.find(';', i);
      std::string entity = end == std::string::npos ? "" : text.substr(i + 1, end - i - 1);
      if (entity != "amp" && entity != "lt" && entity != "gt" && entity != "quot" && entity != "apos" &&
          !(entity.size() > 1 && entity[0] == '#'))
        return false;
    }
    return true;
  };
  std::size_t i = 0;
  auto fail = [&](const std::string& why) {
    error = why + " at byte " + std::to_string(i);
    return std::vector<Element>{};
  };
  while (i < doc.size()) {
    if (doc[i] != '<') {
      std::size_t next = doc.find('<', i);
      std::string text = doc.substr(i, next == std::string::npos ? std::string::npos : next - i);
      if (text.find('>') != std::string::npos || !check_entities(text)) return fail("bad character data");
      if (open.empty() && text.find_first_not_of(" \n\t\r") != std::string::npos) return fail("text outside the root");
      i = next == std::string::npos ? doc.size() : next;
      continue;
    }
    if (doc.compare(i, 2, "</") == 0) {
      std::size_t end = doc.find('>', i);
      if (end == std::string::npos) return fail("unterminated end tag");
      std::string name = doc.substr(i + 2, end - i - 2);
      if (open.empty() || open.back() != name) return fail("end tag </" + name + "> does not match");
      open.pop_back();
      i = end + 1;
      continue;
    }
    // A start tag: name, then attributes name="value", then > or />.
    Element e;
    e.depth = int(open.size());
    std::size_t j = i + 1;
    while (j < doc.size() && is_name_char(doc[j])) e.name += doc[j++];
    if (e.name.empty()) return fail("a '<' that starts no tag");
    bool empty_tag = false;
    for (;;) {
      while (j < doc.size() && std::isspace((unsigned char)doc[j])) ++j;
      if (j >= doc.size()) return fail("unterminated tag");
      if (doc[j] == '>') break;
      if (doc.compare(j, 2, "/>") == 0) {
        empty_tag = true;
        ++j;
        break;
      }
      std::string attribute;
      while (j < doc.size() && is_name_char(doc[j])) attribute += doc[j++];
      if (attribute.empty() || j + 1 >= doc.size() || doc[j] != '=' || (doc[j + 1] != '"' && doc[j + 1] != '\''))
        return fail("bad attribute in <" + e.name + ">");
      char quote = doc[j + 1];
      std::size_t end = doc.find(quote, j + 2);
      if (end == std::string::npos) return fail("unterminated attribute value");
      std::string value = doc.substr(j + 2, end - j - 2);
      if (value.find('<') != std::string::npos || !check_entities(value)) return fail("bad attribute value");
      if (!e.attributes.emplace(attribute, value).second) return fail("repeated attribute " + attribute);
      j = end + 1;
    }
    if (open.empty() && ++roots > 1) return fail("a second root element");
    if (!empty_tag) open.push_back(e.name);
    elements.push_back(std::move(e));
    i = j + 1;
  }
  if (!open.empty()) return fail("<" + open.back() + "> is never closed");
  if (roots != 1) return fail("no root element");
  return elements;
}

std::vector<Element> parse_diagram(const std::string& fen) {
  std::string svg = diagram::diagram_svg(test::position(fen));
  std::string error;
  std::vector<Element> elements = parse_xml(svg, error);
  EXPECT_EQ(error, "") << svg;
  return elements;
}

bool has_class(const Element& e, const std::string& cls) {
  auto it = e.attributes.find("class");
  if (it == e.attributes.end()) return false;
  std::string classes = " " + it->second + " ";
  return classes.find(" " + cls + " ") != std::string::npos;
}

// "wK@e1", "b*N@c3" (a magic unit): every unit drawn, sorted by the map.
std::map<std::string, int> drawn_units(const std::vector<Element>& elements) {
  std::map<std::string, int> units;
  for (std::size_t k = 0; k < elements.size(); ++k) {
    const Element& e = elements[k];
    if (e.name != "g" || !has_class(e, "piece")) continue;
    bool magic = e.attributes.at("data-magic") == "true";
    // The star is inside the piece's group exactly when the unit is magic.
    bool star = false;
    for (std::size_t n = k + 1; n < elements.size() && elements[n].depth > e.depth; ++n)
      star = star || has_class(elements[n], "magic-mark");
    EXPECT_EQ(magic, star) << e.attributes.at("data-square");
    std::string piece = e.attributes.at("data-piece");
    ++units[piece.substr(0, 1) + (magic ? "*" : "") + piece.substr(1) + "@" + e.attributes.at("data-square")];
  }
  return units;
}

TEST(Diagram, TheCheckerRefusesBrokenXml) {
  std::string error;
  EXPECT_TRUE(parse_xml("<svg><g a=\"1\"/></svg>", error).size() == 2) << error;
  for (const char* bad : {"<svg><g></svg>", "<svg a=1></svg>", "<svg>&nbsp;</svg>", "<svg></svg><svg></svg>",
                          "<svg a=\"1\" a=\"2\"></svg>", "<svg>", "<svg><</svg>"}) {
    error.clear();
    EXPECT_TRUE(parse_xml(bad, error).empty()) << bad;
    EXPECT_NE(error, "") << bad;
  }
}

TEST(Diagram, HasSixtyFourSquaresAndCoordinates) {
  std::vector<Element> elements = parse_diagram("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  ASSERT_FALSE(elements.empty());
  EXPECT_EQ(elements.front().name, "svg");
  EXPECT_EQ(elements.front().attributes.at("xmlns"), "http://www.w3.org/2000/svg");
  std::map<std::string, std::string> squares;
  int coordinates = 0;
  for (const Element& e : elements) {
    if (e.name == "rect" && has_class(e, "square")) squares[e.attributes.at("data-square")] = e.attributes.at("class");
    coordinates += e.name == "text" && has_class(e, "coordinate");
  }
  EXPECT_EQ(squares.size(), 64u);
  EXPECT_EQ(squares["a1"], "square dark");
  EXPECT_EQ(squares["h1"], "square light");
  EXPECT_EQ(squares["h8"], "square dark");
  EXPECT_EQ(coordinates, 16);
}

TEST(Diagram, DrawsEveryUnitAtItsSquare) {
  EXPECT_EQ(drawn_units(parse_diagram("4k3/8/8/8/8/8/8/4K3 w - - 0 1")),
            (std::map<std::string, int>{{"bK@e8", 1}, {"wK@e1", 1}}));
  // The seed's Annan diagram D.
  EXPECT_EQ(drawn_units(parse_diagram("8/8/8/8/8/1K5k/RR6/8 w - - 0 1")),
            (std::map<std::string, int>{{"wK@b3", 1}, {"bK@h3", 1}, {"wR@a2", 1}, {"wR@b2", 1}}));
  EXPECT_EQ(drawn_units(parse_diagram("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1")).size(), 32u);
}

TEST(Diagram, DrawsGrasshoppersLocustsAndMagicUnits) {
  EXPECT_EQ(drawn_units(parse_diagram("8/8/1R*6/p1B5/8/g7/3L4/K6k b - - 0 1")),
            (std::map<std::string, int>{
                {"wK@a1", 1}, {"bK@h1", 1}, {"w*R@b6", 1}, {"bP@a5", 1}, {"wB@c5", 1}, {"bG@a3", 1}, {"wL@d2", 1}}));
  EXPECT_EQ(drawn_units(parse_diagram("4k3/8/2n*5/8/8/5G*2/8/4K3 w - - 0 1")),
            (std::map<std::string, int>{{"wK@e1", 1}, {"bK@e8", 1}, {"b*N@c6", 1}, {"w*G@f3", 1}}));
}

TEST(Diagram, ShowsTheSideToMoveAndTheCondition) {
  for (const char* side : {"w", "b"}) {
    Position pos = test::position(std::string("4k3/8/8/8/8/8/8/4K3 ") + side + " - - 0 1");
    std::string error;
    std::vector<Element> elements =
        parse_xml(diagram::diagram_svg(pos, {.size = 200, .condition = "madrasi-ri", .stipulation = ""}), error);
    ASSERT_EQ(error, "");
    EXPECT_EQ(elements.front().attributes.at("width"), "200");
    int markers = 0;
    for (const Element& e : elements)
      if (has_class(e, "side-to-move")) {
        ++markers;
        EXPECT_EQ(e.attributes.at("data-side"), side[0] == 'w' ? "white" : "black");
      }
    EXPECT_EQ(markers, 1);
  }
  std::string svg = diagram::diagram_svg(test::position("4k3/8/8/8/8/8/8/4K3 b - - 0 1"),
                                         {.condition = "madrasi-ri", .stipulation = ""});
  EXPECT_NE(svg.find(">Black to move (1+1) \u00b7 madrasi-ri</text>"), std::string::npos);
  // Issue 24: the units of each side and the stipulation, as problemists print them.
  svg = diagram::diagram_svg(test::position("8/8/8/8/8/1K5k/RR6/8 w - - 0 1"),
                             {.condition = "madrasi-ri", .stipulation = "#2"});
  EXPECT_NE(svg.find(">White to move (3+1) \u00b7 #2 \u00b7 madrasi-ri</text>"), std::string::npos) << svg;
}

TEST(Diagram, IsDeterministicAndSelfContained) {
  Position pos = test::position("8/8/1R*6/p1B5/8/g7/3L4/K6k b - - 0 1");
  std::string svg = diagram::diagram_svg(pos);
  EXPECT_EQ(svg, diagram::diagram_svg(pos));
  EXPECT_EQ(svg.find("href"), std::string::npos);  // no images, links or external fonts
  EXPECT_EQ(svg.find("url("), std::string::npos);
  EXPECT_EQ(svg.find("@font-face"), std::string::npos);
}

// The command line: the same document on stdout or in a file; bad input exits 2.
struct CommandRun {
  int exit_code;
  std::string output;
};

CommandRun run_feerie(const std::string& args) {
  std::string command = std::string(FEERIE_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  CommandRun r{-1, {}};
  if (!pipe) return r;
  std::array<char, 4096> buffer;
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) r.output.append(buffer.data(), n);
  int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

TEST(DiagramCommand, WritesTheSvgToStdoutOrAFile) {
  CommandRun r = run_feerie("diagram --size 240 '8/8/1R*6/p1B5/8/g7/3L4/K6k b - - 0 1'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, diagram::diagram_svg(test::position("8/8/1R*6/p1B5/8/g7/3L4/K6k b - - 0 1"),
                                           {.size = 240, .condition = "", .stipulation = ""}));

  std::string path =
      (std::filesystem::temp_directory_path() / ("feerie_diagram_test_" + std::to_string(getpid()) + ".svg")).string();
  r = run_feerie("diagram --condition madrasi-ri -o " + path + " 8/8/8/8/8/1K5k/RR6/8 w - - 0 1");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  std::string svg = test::file_bytes(path);
  std::filesystem::remove(path);
  std::string error;
  EXPECT_EQ(drawn_units(parse_xml(svg, error)).size(), 4u);
  EXPECT_EQ(error, "");
  EXPECT_NE(svg.find("White to move (3+1) \u00b7 madrasi-ri"), std::string::npos);
  r = run_feerie("diagram --stipulation '#2' '8/8/8/8/8/1K5k/RR6/8 w - - 0 1'");
  EXPECT_NE(r.output.find(">White to move (3+1) \u00b7 #2</text>"), std::string::npos) << r.output;
  r = run_feerie("diagram --stipulation 'mate in two' '8/8/8/8/8/1K5k/RR6/8 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("a stipulation is at most 16 printable ASCII characters"), std::string::npos) << r.output;
}

TEST(DiagramCommand, BadInputIsAnInvalidArgument) {
  CommandRun r = run_feerie("diagram '4k3/8/8/8/8/8/8/4X3 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown piece letter 'X'"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("<svg"), std::string::npos);

  r = run_feerie("diagram '4k3/8/8/8/8/8/8/4K*3 w - - 0 1'");  // a magic king
  EXPECT_EQ(r.exit_code, 2) << r.output;

  r = run_feerie("diagram --condition nosuch '4k3/8/8/8/8/8/8/4K3 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("unknown condition 'nosuch'"), std::string::npos) << r.output;

  // Illegal under the condition asked for: the side not to move is in check.
  r = run_feerie("diagram --condition orthodox '4k3/8/8/8/8/8/8/R3K3 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  r = run_feerie("diagram --condition orthodox '4k3/8/8/8/8/8/8/4K2R w - - 0 1'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  r = run_feerie("diagram --condition orthodox '4k3/8/8/8/8/8/8/4R1K1 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 2) << r.output;

  r = run_feerie("diagram --size 0 '4k3/8/8/8/8/8/8/4K3 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = run_feerie("diagram");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = run_feerie("diagram -o /nonexistent-dir/x.svg '4k3/8/8/8/8/8/8/4K3 w - - 0 1'");
  EXPECT_EQ(r.exit_code, 5) << r.output;
}

}  // namespace
}  // namespace feerie
