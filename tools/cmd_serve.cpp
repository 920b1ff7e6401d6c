// `feerie serve`: a local web viewer of the tables (cpp-httplib). One page (tools/
// serve_page.h) and a JSON API with the same objects as `probe --json` and
// `probe --moves --json` (probe_json(), tools/json_output.cpp):
//   GET /api/probe?fen=…&condition=…    the value, best moves and principal variation
//   GET /api/moves?fen=…&condition=…    the same and every legal move with its value
//   GET /api/diagram?fen=…&condition=…[&size=N]   the board as SVG (study/diagram.h)
// Bad input answers 4xx with {"error": …, "error_kind": …}. Bound to 127.0.0.1 unless
// --host says otherwise.
#include <cerrno>
#include <chrono>
#include <cstring>
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
#include "rules/text.h"
#include "study/diagram.h"
#include "study/serve_page.h"
#include "tools/cli.h"
#include "tools/json_text.h"
#include "tools/serve_api.h"

#ifdef FEERIE_HAVE_HTTPLIB
#include <httplib.h>
#include <netdb.h>
#include <sys/socket.h>

#include "tools/bounded_server.h"
#endif

namespace feerie::cli {

#ifdef FEERIE_HAVE_HTTPLIB

namespace {

// A request target in absolute form (GET http://host/api/probe?... HTTP/1.1), which
// HTTP/1.1 servers accept (RFC 9112, 3.2.2) and proxies send, names the same paths.
constexpr const char* AbsoluteTarget = R"(https?://[^/]+(/.*))";

// The path of a target in origin or absolute form.
std::string path_of_target(const std::string& target) {
  for (const char* scheme : {"http://", "https://"})
    if (target.rfind(scheme, 0) == 0) {
      const std::size_t slash = target.find('/', std::strlen(scheme));
      return slash == std::string::npos ? "/" : target.substr(slash);
    }
  return target;
}

bool served_path(const std::string& path) { return path == "/" || path.rfind("/api/", 0) == 0; }

struct ServeOptions {
  std::string tables = "tables";
  std::string condition = "orthodox";
  std::string host = "127.0.0.1";
  int port = 8080;
};

// Connections served at once, how many one client address may hold, and how long an idle
// or slow one may hold its worker: a few clients that open connections and send nothing
// (or one byte a second) must not keep a normal request waiting (issue 27 F: 30
// half-open connections held one for 28 s with 8 workers and 5 s timeouts). Half the
// workers per client: one client alone can never take them all. On 127.0.0.1 every local
// client is one address, so the bound is generous (a browser opens about 6).
constexpr std::size_t Workers = 64;
constexpr std::size_t ConnectionsPerClient = Workers / 2;
constexpr time_t IdleSeconds = 2;
// And a request that trickles in byte by byte, each within IdleSeconds, is cut off this
// long after its first byte (a page's request arrives in one packet).
constexpr std::chrono::seconds RequestSeconds{5};

// Refuses a --host that names no address (exit 2, as a bad option), before listening.
void require_host_address(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int status = ::getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (found) ::freeaddrinfo(found);
  if (status != 0)
    throw CommandError("bad --host '" + printable_excerpt(host, 80) + "': " + ::gai_strerror(status),
                       ErrorKind::InvalidArgument);
}

void serve(const ServeOptions& opt) {
  RuleSet default_rules = parse_condition(opt.condition);  // refuse a bad --condition before listening
  // Refuse a --tables that is not a directory before listening (issue 27 G): every
  // request would fail.
  require_tables_directory(opt.tables);
  require_host_address(opt.host);
  auto api = std::make_shared<ServeApi>(opt.tables, default_rules);
  BoundedServer server(ConnectionsPerClient, RequestSeconds);
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

  // Every /api/ path goes to the API, which answers unknown ones with a JSON 404.
  auto answer = [api](const std::string& path, const httplib::Request& req, httplib::Response& res) {
    std::multimap<std::string, std::string> params(req.params.begin(), req.params.end());
    ApiReply reply = api->answer(path, params);
    res.status = reply.status;
    res.set_content(reply.body, reply.content_type);
  };
  server.Get("/api/.*", [answer](const httplib::Request& req, httplib::Response& res) { answer(req.path, req, res); });
  // A request target in absolute form: the same paths.
  server.Get(AbsoluteTarget, [answer, page](const httplib::Request& req, httplib::Response& res) {
    const std::string path = req.matches[1];
    if (path == "/")
      res.set_content(page, "text/html; charset=utf-8");
    else if (path.rfind("/api/", 0) == 0)
      answer(path, req, res);
    else
      res.status = 404;  // the error handler's JSON
  });

  // The page and the API are read, never written: other methods on their paths are 405
  // with the methods they take (cpp-httplib answers HEAD from the GET handlers).
  auto read_only = [](const httplib::Request& req, httplib::Response& res) {
    res.status = 405;
    res.body.clear();
    res.set_header("Allow", "GET, HEAD");
    res.set_content(json_text(nlohmann::json{{"error", req.method + " is not allowed here: the viewer and its API "
                                                                    "answer GET (and HEAD)"},
                                             {"error_kind", kind_name(ErrorKind::InvalidArgument)}}) +
                        "\n",
                    "application/json");
  };
  // Every other method is answered before routing, which would first read the request's
  // body whole (a gzip one decompressed: 2 MB of gzip took 0.7 GB) only to refuse it. The
  // body is not read, so the connection is closed after the answer.
  server.set_pre_routing_handler([read_only](const httplib::Request& req, httplib::Response& res) {
    if (req.method == "GET" || req.method == "HEAD") return httplib::Server::HandlerResponse::Unhandled;
    if (served_path(path_of_target(req.path)))
      read_only(req, res);
    else
      res.status = 404;  // the error handler's JSON
    if (req.has_header("Content-Length") || req.has_header("Transfer-Encoding")) {
      res.set_header("Connection", "close");
      BoundedServer::close_after_this_answer();
    }
    return httplib::Server::HandlerResponse::Handled;
  });

  // Errors the server meets before any handler (a request line over cpp-httplib's limit:
  // 414, issue 24; a path outside the page and the API: 404) used to have an empty body.
  server.set_error_handler([read_only](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return;  // the API's own JSON error
    // A POST or PUT without a body's length is refused before it is routed: 405 as well.
    if (res.status == 400 && served_path(path_of_target(req.path)) && req.method != "GET" && req.method != "HEAD")
      return read_only(req, res);
    std::string message = "HTTP error " + std::to_string(res.status);
    std::string kind = "invalid argument";
    if (res.status == 414)
      message = "the request is longer than " + std::to_string(CPPHTTPLIB_REQUEST_URI_MAX_LENGTH) +
                " bytes (a FEN and a condition take well under 200)";
    if (res.status == 404) message = "no such page: the viewer is at / and its API under /api/", kind = "not found";
    if (res.status == 400 || res.status == 414) {
      // A request that could not be read leaves its connection unreadable: its leftover
      // lines were each answered 400 in turn.
      res.set_header("Connection", "close");
      BoundedServer::close_after_this_answer();
    }
    if (res.status == 400)
      message =
          "the request could not be read (expected an HTTP/1.1 request line, such as GET /api/probe?fen=... "
          "HTTP/1.1, and headers of at most 8192 bytes each)";
    res.set_content(json_text(nlohmann::json{{"error", message}, {"error_kind", kind}}) + "\n", "application/json");
  });

  int port = opt.port;
  errno = 0;
  if (port == 0)
    port = server.bind_to_any_port(opt.host);
  else if (!server.bind_to_port(opt.host, port))
    port = -1;
  if (port <= 0) {
    // (cpp-httplib keeps the failed bind's or listen's errno: it only closes the socket after.)
    const std::string reason = errno ? std::string(": ") + std::strerror(errno) : "";
    throw CommandError("cannot listen on " + opt.host + ":" + std::to_string(opt.port) + reason, ErrorKind::IOError);
  }
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
  cmd->add_option("--tables", opt->tables, "Tables directory (default: ./tables)")->check(refuse_empty_directory);
  cmd->add_option("--condition", opt->condition, "The page's condition until another is chosen (default: orthodox)");
  cmd->add_option("--port", opt->port, "Port (default 8080; 0: any free port, printed on startup)")
      ->check(whole_number_in(0, 65535));
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
