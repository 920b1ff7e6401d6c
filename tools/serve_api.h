// The viewer's JSON API (`feerie serve`, docs/cli.md) apart from the HTTP server: what a
// request answers, given its path and its query parameters. cmd_serve.cpp hands it the
// requests cpp-httplib parsed; the fuzz target of request handling
// (tests/fuzz/fuzz_serve_requests.cpp) hands it any bytes.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "probe/help_tablebase.h"
#include "probe/tablebase.h"
#include "rules/ruleset.h"

namespace feerie::cli {

struct ApiReply {
  int status = 200;
  std::string body;
  std::string content_type = "application/json";
};

// Thread-safety: answer() may be called from the server's threads at once.
class ServeApi {
 public:
  ServeApi(std::string tables_dir, RuleSet default_rules)
      : tables_dir_(std::move(tables_dir)), default_rules_(std::move(default_rules)) {}

  // GET `path` ("/api/probe", "/api/moves", "/api/stat", "/api/diagram", and for helpmate
  // and selfmate tables "/api/help", "/api/help-stat") with `params`
  // (decoded, any bytes): the answer, or a JSON error {"error", "error_kind"} with 400 for
  // the user's mistakes, 404 for a missing table or an unknown path, 500 for the server's
  // trouble. Never throws.
  ApiReply answer(const std::string& path, const std::multimap<std::string, std::string>& params);

 private:
  // The tablebase of a condition, opened on first use and kept (opening reads nothing).
  Tablebase tablebase(const std::string& condition);

  // The helpmate or selfmate tables of a condition (`stipulation`: "h#" or "s#"), the same.
  // (`path`, the API path asking, names it in the error for a direct mate.)
  const HelpTablebase& help_tablebase(const std::string& path, const std::string& condition,
                                      const std::string& stipulation);

  std::string tables_dir_;
  RuleSet default_rules_;
  std::mutex mutex_;
  std::map<std::string, Tablebase> opened_;
  std::map<std::string, std::unique_ptr<HelpTablebase>> help_opened_;
};

// The HTTP status of a failure of `kind`: the user's mistakes are 4xx, the server's 5xx.
int http_status(ErrorKind kind);
// The JSON error body of the API.
std::string api_error_json(const std::string& message, ErrorKind kind);

}  // namespace feerie::cli
