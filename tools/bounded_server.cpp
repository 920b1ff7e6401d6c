#include "tools/bounded_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include "rules/expected.h"

namespace feerie::cli {

namespace {

// The address and port of a socket's end (getpeername or getsockname).
template <class GetName>
void address_of(socket_t sock, GetName get_name, std::string& ip, int& port) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  ip.clear();
  port = 0;
  if (get_name(sock, reinterpret_cast<sockaddr*>(&address), &length) != 0) return;
  char text[INET6_ADDRSTRLEN] = "";
  if (address.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&address);
    inet_ntop(AF_INET, &a->sin_addr, text, sizeof text);
    port = ntohs(a->sin_port);
  } else if (address.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&address);
    inet_ntop(AF_INET6, &a->sin6_addr, text, sizeof text);
    port = ntohs(a->sin6_port);
  }
  ip = text;
}

// Whether `sock` is ready for `events` within the time given; -1 on an error.
int wait_for(socket_t sock, short events, std::chrono::microseconds timeout) {
  pollfd p{sock, events, 0};
  const int ms = int(std::chrono::duration_cast<std::chrono::milliseconds>(timeout).count());
  for (;;) {
    const int n = ::poll(&p, 1, ms);
    if (n < 0 && errno == EINTR) continue;
    return n;
  }
}

// A connection as cpp-httplib's request parser reads it: blocking calls bounded by the
// server's read and write timeouts. Reads go through a buffer of the stream's own: the
// parser asks for its request line and headers a byte at a time, which was one recv()
// per byte.
class ConnectionStream final : public httplib::Stream {
 public:
  ConnectionStream(socket_t sock, std::chrono::microseconds read_timeout, std::chrono::microseconds write_timeout)
      : sock_(sock), read_timeout_(read_timeout), write_timeout_(write_timeout) {}

  // Reads fail from `deadline` on: the whole request must have arrived by then, however
  // its bytes trickle in (each read alone waits at most the read timeout).
  void set_read_deadline(std::chrono::steady_clock::time_point deadline) { deadline_ = deadline; }

  // Bytes received and not yet read: the start of a request the client sent before its
  // last answer (pipelined), which must not wait for more to arrive.
  bool has_buffered_bytes() const { return next_ < end_; }

  bool is_readable() const override {
    using namespace std::chrono;
    if (has_buffered_bytes()) return true;
    const auto left = duration_cast<microseconds>(deadline_ - steady_clock::now());
    if (left <= microseconds(0)) return false;
    return wait_for(sock_, POLLIN, std::min(read_timeout_, left)) > 0;
  }
  bool is_writable() const override { return wait_for(sock_, POLLOUT, write_timeout_) > 0; }
  ssize_t read(char* ptr, size_t size) override {
    if (!has_buffered_bytes()) {
      if (!is_readable()) return -1;
      // A large read (a body) goes straight to the caller.
      if (size >= sizeof buffer_) return receive(ptr, size);
      const ssize_t n = receive(buffer_, sizeof buffer_);
      if (n <= 0) return n;
      next_ = 0;
      end_ = std::size_t(n);
    }
    const std::size_t n = std::min(size, end_ - next_);
    std::memcpy(ptr, buffer_ + next_, n);
    next_ += n;
    return ssize_t(n);
  }
  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    for (;;) {
      const ssize_t n = ::send(sock_, ptr, size, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      return n;
    }
  }
  void get_remote_ip_and_port(std::string& ip, int& port) const override { address_of(sock_, ::getpeername, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address_of(sock_, ::getsockname, ip, port); }
  socket_t socket() const override { return sock_; }

 private:
  ssize_t receive(char* ptr, size_t size) {
    for (;;) {
      const ssize_t n = ::recv(sock_, ptr, size, 0);
      if (n < 0 && errno == EINTR) continue;
      return n;
    }
  }

  socket_t sock_;
  std::chrono::microseconds read_timeout_, write_timeout_;
  char buffer_[4096];
  std::size_t next_ = 0, end_ = 0;  // the unread bytes of buffer_
  std::chrono::steady_clock::time_point deadline_ = std::chrono::steady_clock::time_point::max();
};

// Set by close_after_this_answer() while a request of this thread's connection is served.
thread_local bool closing_after_answer = false;

void close_connection(socket_t sock) {
  ::shutdown(sock, SHUT_RDWR);
  ::close(sock);
}

}  // namespace

void BoundedServer::close_after_this_answer() { closing_after_answer = true; }

bool BoundedServer::admit(const std::string& client) {
  std::lock_guard lock(mutex_);
  std::size_t& open = open_[client];
  if (open >= per_client_) return false;
  ++open;
  return true;
}

void BoundedServer::release(const std::string& client) {
  std::lock_guard lock(mutex_);
  if (auto it = open_.find(client); it != open_.end() && --it->second == 0) open_.erase(it);
}

bool BoundedServer::process_and_close_socket(socket_t sock) {
  using std::chrono::microseconds, std::chrono::seconds;
  std::string client;
  int port = 0;
  address_of(sock, ::getpeername, client, port);
  if (!admit(client)) {
    // The viewer's JSON error (tools/serve_api.h), without reading the request.
    const std::string body = "{\"error\": \"too many connections from this address at once (" +
                             std::to_string(per_client_) + ")\", \"error_kind\": \"" +
                             kind_name(ErrorKind::ResourceLimit) + "\"}\n";
    const std::string refusal =
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
        "Connection: close\r\nContent-Length: " +
        std::to_string(body.size()) + "\r\n\r\n" + body;
    (void)::send(sock, refusal.data(), refusal.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    close_connection(sock);
    return false;
  }
  // Each answer goes out as soon as it is written: with Nagle's algorithm, the body of an
  // answer on a kept-alive connection waited some 40 ms for the client's delayed ACK of
  // its headers.
  int yes = 1;
  setsockopt(sock, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
  ConnectionStream stream(sock, seconds(read_timeout_sec_) + microseconds(read_timeout_usec_),
                          seconds(write_timeout_sec_) + microseconds(write_timeout_usec_));
  // cpp-httplib's keep-alive loop: requests while the server runs and the client sends
  // the next one within the keep-alive timeout, at most keep_alive_max_count_.
  bool served = false;
  for (std::size_t left = keep_alive_max_count_; left > 0 && svr_sock_ != INVALID_SOCKET; --left) {
    if (!stream.has_buffered_bytes() && wait_for(sock, POLLIN, seconds(keep_alive_timeout_sec_)) <= 0) break;
    stream.set_read_deadline(std::chrono::steady_clock::now() + request_time_);
    bool connection_closed = false;
    closing_after_answer = false;
    served = process_request(stream, left == 1, connection_closed, nullptr);
    if (!served || connection_closed || closing_after_answer) break;
  }
  close_connection(sock);
  release(client);
  return served;
}

}  // namespace feerie::cli
