// JSON output of the command line and the viewer.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace feerie::cli {

// The JSON text of `j`. A string holding bytes that are not valid UTF-8 (user input
// echoed back: a FEN line of a batch) gets U+FFFD for them instead of the exception the
// writer throws by default (issue 27 B).
template <class Json>
std::string json_text(const Json& j, int indent = -1) {
  return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

}  // namespace feerie::cli
