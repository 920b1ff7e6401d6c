// libFuzzer target for the viewer's request handling (issue 27; docs/testing.md, "Fuzzing"): what `feerie serve`
// does with a request once cpp-httplib has split it into a path and query parameters (tools/serve_api.h), on real
// tables (orthodox KQvK, KRvK and Madrasi RI KQvK, generated once). The input is a request target as a browser
// sends it, "/api/probe?fen=...&condition=...": split at '?' and '&', each name and value percent-decoded, so any
// bytes (invalid UTF-8, NUL, Latin-1) can reach the handlers. Every answer must be a status the API documents
// (200, 400, 404, 422, 500) with a body a client can read: JSON that parses, holds "error" and "error_kind" when it
// is an error, and is valid UTF-8 (nlohmann::json parses only that), or an SVG for a diagram. A crash, a sanitizer
// report, a leak, a 500 (the handlers' own failure: the tables are sound), an unreadable body or an allocation beyond
// libFuzzer's -malloc_limit_mb is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "gen/generate.h"
#include "tools/serve_api.h"

namespace {

using namespace feerie;
namespace fs = std::filesystem;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_serve_requests: %s: %s\n", what, detail.c_str());
  __builtin_trap();
}

struct Fixed {
  fs::path root;
  std::unique_ptr<cli::ServeApi> api;

  Fixed() {
    std::string pattern = (fs::temp_directory_path() / "feerie-fuzz-serve-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) std::abort();
    root = pattern;
    GenerateOptions options;
    options.tables_dir = root.string();
    options.threads = 1;
    options.checkpoint_seconds = -1;
    if (!generate({*Material::parse("KQvK"), *Material::parse("KRvK")}, RuleSet::orthodox(), options)) std::abort();
    if (!generate({*Material::parse("KQvK")}, *RuleSet::parse("madrasi-ri"), options)) std::abort();
    api = std::make_unique<cli::ServeApi>(root.string(), RuleSet::orthodox());
  }
  ~Fixed() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

Fixed& fixed() {
  static Fixed f;
  return f;
}

int hex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding as a server does it ('+' is a space; a '%' without two hex digits stays).
std::string decoded(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%' && i + 2 < text.size() && hex(text[i + 1]) >= 0 && hex(text[i + 2]) >= 0) {
      out += char(hex(text[i + 1]) * 16 + hex(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string target(reinterpret_cast<const char*>(data), size);
  const std::size_t question = target.find('?');
  const std::string path = decoded(target.substr(0, question));
  std::multimap<std::string, std::string> params;
  if (question != std::string::npos) {
    const std::string query = target.substr(question + 1);
    for (std::size_t start = 0; start <= query.size();) {
      std::size_t amp = std::min(query.find('&', start), query.size());
      const std::string pair = query.substr(start, amp - start);
      const std::size_t eq = pair.find('=');
      params.emplace(decoded(pair.substr(0, eq)), eq == std::string::npos ? "" : decoded(pair.substr(eq + 1)));
      start = amp + 1;
    }
  }
  const cli::ApiReply reply = fixed().api->answer(path, params);
  if (reply.status != 200 && reply.status != 400 && reply.status != 404 && reply.status != 422)
    fail("status", std::to_string(reply.status) + " " + reply.body);
  if (reply.content_type == "image/svg+xml") {
    if (reply.status != 200 || reply.body.rfind("<svg", 0) != 0) fail("diagram", reply.body.substr(0, 200));
    return 0;
  }
  // Parsing checks that the body is JSON and valid UTF-8 (the parser refuses anything else).
  const nlohmann::json body = nlohmann::json::parse(reply.body, nullptr, false);
  if (body.is_discarded()) fail("body is not JSON (or not UTF-8)", reply.body);
  if (reply.status != 200 && !(body.contains("error") && body.contains("error_kind"))) fail("error body", reply.body);
  return 0;
}
