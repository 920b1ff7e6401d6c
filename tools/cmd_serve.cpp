// `feerie serve`: a local web viewer of the tables (cpp-httplib). One page (tools/
// serve_page.h) and a JSON API with the same objects as `probe --json` and
// `probe --moves --json` (probe_json(), tools/cmd_tables.cpp):
//   GET /api/probe?fen=…&condition=…    the value, best moves and principal variation
//   GET /api/moves?fen=…&condition=…    the same and every legal move with its value
//   GET /api/diagram?fen=…&condition=…[&size=N]   the board as SVG (tools/diagram.h)
// Bad input answers 4xx with {"error": …, "error_kind": …}. Bound to 127.0.0.1 unless
// --host says otherwise.
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>

#include "probe/header_check.h"
#include "probe/material.h"
#include "probe/table_file.h"
#include "probe/tablebase.h"
#include "tools/cli.h"
#include "tools/json_text.h"
#include "tools/diagram.h"
#include "tools/serve_page.h"

#ifdef FEERIE_HAVE_HTTPLIB
#include <httplib.h>
#include <sys/socket.h>
#endif

namespace feerie::cli {

#ifdef FEERIE_HAVE_HTTPLIB

namespace {

// The tablebases of every condition asked for, opened on first use and kept (opening
// reads nothing; tables are opened when probed). Safe to call from the server's threads.
class Tablebases {
 public:
  explicit Tablebases(std::string directory) : directory_(std::move(directory)) {}

  Tablebase get(const std::string& condition) {
    RuleSet rules = parse_condition(condition);
    std::lock_guard lock(mutex_);
    auto it = opened_.find(rules.name());
    if (it == opened_.end()) it = opened_.emplace(rules.name(), Tablebase::open(directory_, rules)).first;
    return it->second;
  }

 private:
  std::string directory_;
  std::mutex mutex_;
  std::map<std::string, Tablebase> opened_;
};

// The user's mistakes are 4xx, the server's trouble 5xx.
int http_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::InvalidArgument:
      return 400;
    case ErrorKind::NotFound:
      return 404;
    case ErrorKind::NotSupported:
      return 422;
    default:
      return 500;
  }
}

void reply_error(httplib::Response& res, const std::string& message, ErrorKind kind) {
  res.status = http_status(kind);
  res.set_content(json_text(nlohmann::ordered_json{{"error", message}, {"error_kind", kind_name(kind)}}) + "\n",
                  "application/json");
}

std::string parameter(const httplib::Request& req, const std::string& name, const std::string& fallback = "") {
  if (req.has_param(name.c_str()) && !req.get_param_value(name.c_str()).empty())
    return req.get_param_value(name.c_str());
  if (!fallback.empty()) return fallback;
  throw CommandError("missing parameter '" + name + "'", ErrorKind::InvalidArgument);
}

// Runs one API request: `answer` fills the response; failures become JSON errors.
template <class Answer>
void api(httplib::Response& res, Answer answer) {
  try {
    answer();
  } catch (const CommandError& e) {
    reply_error(res, e.what(), e.kind);
  } catch (const std::exception& e) {
    reply_error(res, e.what(), ErrorKind::Internal);
  }
}

struct ServeOptions {
  std::string tables = "tables";
  std::string condition = "orthodox";
  std::string host = "127.0.0.1";
  int port = 8080;
};

// Connections served at once, and how long an idle or slow one may hold its worker: a
// few clients that open connections and send nothing (or one byte a second) must not
// keep a normal request waiting (issue 27 F: 30 half-open connections held one for 28 s
// with 8 workers and 5 s timeouts).
constexpr std::size_t Workers = 64;
constexpr time_t IdleSeconds = 2;

void serve(const ServeOptions& opt) {
  RuleSet default_rules = parse_condition(opt.condition);  // refuse a bad --condition before listening
  // Refuse a --tables that is not a directory before listening (issue 27 G): every
  // request would fail.
  std::error_code ec;
  if (!std::filesystem::is_directory(opt.tables, ec))
    throw CommandError("the tables directory '" + opt.tables + "' " +
                           (std::filesystem::exists(opt.tables, ec) ? "is not a directory" : "does not exist"),
                       ErrorKind::InvalidArgument);
  auto tables = std::make_shared<Tablebases>(opt.tables);
  httplib::Server server;
  server.new_task_queue = [] { return new httplib::ThreadPool(Workers); };
  server.set_read_timeout(IdleSeconds, 0);
  server.set_write_timeout(IdleSeconds, 0);
  server.set_keep_alive_timeout(IdleSeconds);
  // SO_REUSEADDR only: cpp-httplib's default adds SO_REUSEPORT, with which a second
  // server starts on a port another already holds and the two share its requests.
  auto listening = std::make_shared<socket_t>(-1);
  server.set_socket_options([listening](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    *listening = sock;
  });

  std::string page = ServePage;
  const std::string placeholder = "__DEFAULT_CONDITION__";
  page.replace(page.find(placeholder), placeholder.size(), json_text(nlohmann::json(default_rules.name())));
  server.Get("/", [page](const httplib::Request&, httplib::Response& res) {
    res.set_content(page, "text/html; charset=utf-8");
  });

  auto probe_handler = [tables, default_rules](bool with_moves) {
    return [tables, default_rules, with_moves](const httplib::Request& req, httplib::Response& res) {
      api(res, [&] {
        Tablebase tb = tables->get(parameter(req, "condition", default_rules.name()));
        Position pos = parse_position(parameter(req, "fen"), tb.rules());
        res.set_content(probe_json(tb, pos, with_moves, true) + "\n", "application/json");
      });
    };
  };
  server.Get("/api/probe", probe_handler(false));
  server.Get("/api/moves", probe_handler(true));
  // The statistics of a material (`material=KQvKR`, either orientation, or the material of
  // `fen=`), as `feerie stat --json` prints them.
  server.Get("/api/stat", [tables, default_rules](const httplib::Request& req, httplib::Response& res) {
    api(res, [&] {
      Tablebase tb = tables->get(parameter(req, "condition", default_rules.name()));
      Material material = req.has_param("material") ? take(Material::parse(parameter(req, "material")))
                                                    : Material::of(parse_position(parameter(req, "fen"), tb.rules()));
      material = material.canonical_orientation();
      std::unique_ptr<TableFile> file = take(open_table(tb.table_path(material), material, tb.rules()));
      res.set_content(stat_json(file->header()) + "\n", "application/json");
    });
  });
  server.Get("/api/diagram", [default_rules](const httplib::Request& req, httplib::Response& res) {
    api(res, [&] {
      RuleSet rules = parse_condition(parameter(req, "condition", default_rules.name()));
      diagram::DiagramOptions d;
      d.condition = rules.name();
      std::string size = parameter(req, "size", "360");
      if (size.size() > 5 || size.find_first_not_of("0123456789") != std::string::npos || std::stoi(size) < 16)
        throw CommandError("bad size '" + size + "' (expected 16 to 10000)", ErrorKind::InvalidArgument);
      d.size = std::min(std::stoi(size), 10000);
      res.set_content(diagram::diagram_svg(parse_position(parameter(req, "fen"), rules), d), "image/svg+xml");
    });
  });
  server.set_error_handler([](const httplib::Request& req, httplib::Response& res) {
    // Only for paths no handler answered: a handler's own error already has its body.
    if (res.status == 404 && res.body.empty() && req.path.rfind("/api/", 0) == 0)
      reply_error(res, "no such API path '" + req.path + "'", ErrorKind::NotFound);
  });

  int port = opt.port;
  if (port == 0)
    port = server.bind_to_any_port(opt.host);
  else if (!server.bind_to_port(opt.host, port))
    port = -1;
  if (port <= 0)
    throw CommandError("cannot listen on " + opt.host + ":" + std::to_string(opt.port), ErrorKind::IOError);
  // cpp-httplib listens with a backlog of 5: while its accepting thread waits for a core,
  // a sixth client's connection is dropped and retried a second later. Listening again
  // on the bound socket raises the backlog (Linux updates it in place).
  if (*listening >= 0) ::listen(*listening, SOMAXCONN);
  std::cout << "feerie: serving http://" << opt.host << ":" << port << "/ (tables " << opt.tables << ", condition "
            << default_rules.name() << "); Ctrl-C stops" << std::endl;
  if (!server.listen_after_bind()) throw CommandError("the server stopped on an error", ErrorKind::IOError);
}

}  // namespace

#endif  // FEERIE_HAVE_HTTPLIB

void add_serve_command(CLI::App& app) {
#ifdef FEERIE_HAVE_HTTPLIB
  auto opt = std::make_shared<ServeOptions>();
#else
  struct ServeOptions {
    std::string tables, condition, host;
    int port = 0;
  };
  auto opt = std::make_shared<ServeOptions>();
#endif
  CLI::App* cmd = app.add_subcommand("serve", "A local web viewer of the tables, with a JSON API");
  cmd->add_option("--tables", opt->tables, "Tables directory (default: ./tables)");
  cmd->add_option("--condition", opt->condition, "The page's condition until another is chosen (default: orthodox)");
  cmd->add_option("--port", opt->port, "Port (default 8080; 0: any free port, printed on startup)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--host", opt->host, "Address to listen on (default 127.0.0.1: this machine only)");
  cmd->callback([opt] {
#ifdef FEERIE_HAVE_HTTPLIB
    serve(*opt);
#else
    throw CommandError("this feerie was built without cpp-httplib (Debian package libcpp-httplib-dev)",
                       ErrorKind::NotSupported);
#endif
  });
}

}  // namespace feerie::cli
