// cpp-httplib's server with a bound on the connections one client (one IP address) holds
// at once (issue 27: a few clients that open connections and send nothing, or one byte at
// a time, must not take every worker), and on the time a request may take to arrive. A
// connection beyond the bound is answered at once with 503 and closed, before anything is
// read from it.
//
// cpp-httplib 0.11 has no hook for this: its accept loop hands each connection to one
// virtual member, process_and_close_socket(), which this class overrides (C++ allows
// overriding a private virtual). The connection is then served as cpp-httplib serves it
// — keep-alive requests while the server runs, each through its protected
// process_request() — over a stream of our own with the server's timeouts. A new
// cpp-httplib that changes that member fails to compile here (`override`), rather than
// silently bypassing the bound.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <map>
#include <mutex>
#include <string>

namespace feerie::cli {

class BoundedServer : public httplib::Server {
 public:
  // `request_time`: how long a request may take to arrive, from its first byte (a client
  // sending one byte at a time within the read timeout would otherwise hold its
  // connection for ever).
  BoundedServer(std::size_t connections_per_client, std::chrono::seconds request_time)
      : per_client_(connections_per_client), request_time_(request_time) {}

  // Called from a handler (pre-routing, error) on the thread that serves the request: the
  // connection is closed once this answer is written. For an answer given without reading
  // the request's body (the rest of the connection would be read as requests), or to a
  // request that could not be read (its leftover lines were each answered 400 in turn).
  static void close_after_this_answer();

 private:
  bool process_and_close_socket(socket_t sock) override;
  // Counts a connection of `client` in; false (nothing counted) when it holds the bound.
  bool admit(const std::string& client);
  void release(const std::string& client);

  const std::size_t per_client_;
  const std::chrono::seconds request_time_;
  std::mutex mutex_;
  std::map<std::string, std::size_t> open_;  // connections per client address, nonzero only
};

}  // namespace feerie::cli
