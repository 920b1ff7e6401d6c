// `feerie serve` seen over HTTP: the program is started on 127.0.0.1 with a free port
// (--port 0; it prints the port), on tables generated once for the suite, and asked what
// a browser's script asks. The API must give the very objects `probe --json` and
// `probe --moves --json` print, and 4xx with a JSON error for bad input.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

std::string run(const std::string& args) {
  std::string command = std::string(FEERIE_BINARY) + " " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  if (!pipe) return out;
  std::array<char, 4096> buffer;
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), n);
  EXPECT_EQ(pclose(pipe), 0) << command << "\n" << out;
  return out;
}

std::string encode(const std::string& text) { return httplib::detail::encode_query_param(text); }

class Serve : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tables_ = fs::temp_directory_path() / ("feerie_serve_test_" + std::to_string(getpid()));
    run("gen --tables " + tables_.string() + " KQvK KRvK");
    run("gen --condition madrasi-ri --tables " + tables_.string() + " KQvK");
    run("gen --stipulation h# --tables " + tables_.string() + " KRvK");

    // The server's stdout comes back through a pipe: its first line names the port.
    int out[2];
    ASSERT_EQ(pipe(out), 0);
    server_ = fork();
    ASSERT_GE(server_, 0);
    if (server_ == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      std::string tables = tables_.string();
      execl(FEERIE_BINARY, FEERIE_BINARY, "serve", "--tables", tables.c_str(), "--port", "0",
            static_cast<char*>(nullptr));
      _exit(127);
    }
    close(out[1]);
    FILE* server_out = fdopen(out[0], "r");
    std::array<char, 512> line{};
    ASSERT_NE(std::fgets(line.data(), line.size(), server_out), nullptr) << "the server printed nothing";
    std::string text = line.data();
    std::size_t at = text.find("127.0.0.1:");
    ASSERT_NE(at, std::string::npos) << text;
    port_ = std::atoi(text.c_str() + at + 10);
    ASSERT_GT(port_, 0) << text;
    server_out_ = server_out;  // kept open: the server may write more
  }

  static void TearDownTestSuite() {
    if (server_ > 0) {
      kill(server_, SIGTERM);
      waitpid(server_, nullptr, 0);
    }
    if (server_out_) fclose(server_out_);
    std::error_code ignored;
    fs::remove_all(tables_, ignored);
  }

  static httplib::Result get(const std::string& path) {
    httplib::Client client("127.0.0.1", port_);
    client.set_connection_timeout(5);
    client.set_read_timeout(30);
    return client.Get(path);
  }

  // An API error: its status, and a JSON body with "error" and "error_kind".
  static void expect_error(const std::string& path, int status, const std::string& kind, const std::string& words) {
    httplib::Result r = get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, status) << path << ": " << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
    nlohmann::json j = nlohmann::json::parse(r->body);
    EXPECT_EQ(j["error_kind"], kind) << r->body;
    EXPECT_NE(j["error"].get<std::string>().find(words), std::string::npos) << r->body;
  }

  // A connection to the server, or -1.
  static int connect_to_server() {
    const int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(std::uint16_t(port_));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
      close(s);
      return -1;
    }
    return s;
  }

  // Sends `request` as it stands and returns what the server answers: its first answer
  // (`first_only`) or everything until it closes the connection (then `closed`), or is
  // silent for 5 s.
  static std::string exchange(const std::string& request, bool first_only, bool& closed) {
    closed = false;
    const int s = connect_to_server();
    if (s < 0) return "";
    (void)send(s, request.data(), request.size(), MSG_NOSIGNAL);
    timeval wait{5, 0};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    std::string reply;
    char buffer[4096];
    ssize_t n;
    while ((n = recv(s, buffer, sizeof buffer, 0)) > 0) {
      reply.append(buffer, std::size_t(n));
      if (first_only && reply.find("\r\n\r\n") != std::string::npos && reply.find("}\n") != std::string::npos) break;
    }
    closed = n == 0;
    close(s);
    return reply;
  }
  static std::string raw_exchange(const std::string& request) {
    bool closed = false;
    return exchange(request, true, closed);
  }
  static std::string exchange_until_closed(const std::string& request, bool& closed) {
    return exchange(request, false, closed);
  }

  static inline fs::path tables_;
  static inline pid_t server_ = -1;
  static inline int port_ = 0;
  static inline FILE* server_out_ = nullptr;
};

const std::string Fen = "8/8/8/8/8/3Q4/8/k1K5 w - - 0 1";  // KQvK, mate in 1 three ways

// The page's statistics of the material: what `feerie stat --json` prints, asked by a
// position or by a material in either orientation; a missing table is a 404.
TEST_F(Serve, StatGivesWhatStatJsonPrints) {
  const std::string expected = run("stat --json --tables " + tables_.string() + " KQvK");
  for (const std::string& path : {"/api/stat?fen=" + encode(Fen), std::string("/api/stat?material=KQvK"),
                                  std::string("/api/stat?material=KvKQ")}) {
    httplib::Result r = get(path);
    ASSERT_TRUE(r) << path;
    EXPECT_EQ(r->status, 200) << path;
    EXPECT_EQ(r->body, expected) << path;
  }
  httplib::Result madrasi = get("/api/stat?material=KQvK&condition=madrasi-ri");
  ASSERT_TRUE(madrasi);
  EXPECT_EQ(nlohmann::json::parse(madrasi->body)["condition"], "madrasi-ri");
  expect_error("/api/stat?material=KBvK", 404, "not found", "missing table KBvK");
  expect_error("/api/stat?material=KXvK", 400, "invalid argument", "KXvK");
}

TEST_F(Serve, ProbeGivesWhatProbeJsonPrints) {
  httplib::Result r = get("/api/probe?fen=" + encode(Fen));
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "application/json");
  EXPECT_EQ(r->body, run("probe --json --tables " + tables_.string() + " '" + Fen + "'"));
  nlohmann::json j = nlohmann::json::parse(r->body);
  EXPECT_EQ(j["wdl"], "win");
  EXPECT_EQ(j["mate_in"], 1);
}

// A table regenerated while the server runs (a new file renamed over the old one, as gen
// writes it) is read again within a second, without a restart: the server once went on
// answering from the file it had opened, here a damaged one, until it was restarted.
TEST_F(Serve, ATableReplacedOnDiskIsReadWithoutARestart) {
  const fs::path table = tables_ / "orthodox" / "KQvK.ftb";
  const fs::path sound = table.string() + ".sound";
  fs::copy_file(table, sound);
  auto put_in_place = [&](const fs::path& file) {
    fs::copy_file(file, table.string() + ".new");
    fs::rename(table.string() + ".new", table);
    std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  };
  ASSERT_EQ(get("/api/probe?fen=" + encode(Fen))->status, 200);
  const fs::path damaged = table.string() + ".damaged";
  std::ofstream(damaged, std::ios::binary) << "not a table";
  put_in_place(damaged);
  expect_error("/api/probe?fen=" + encode(Fen), 500, "corrupt", "KQvK.ftb");
  put_in_place(sound);
  httplib::Result r = get("/api/probe?fen=" + encode(Fen));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(nlohmann::json::parse(r->body)["mate_in"], 1);
}

TEST_F(Serve, MovesGivesWhatProbeMovesJsonPrints) {
  for (std::string condition : {"orthodox", "madrasi-ri"}) {
    httplib::Result r = get("/api/moves?fen=" + encode(Fen) + "&condition=" + condition);
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(r->body, run("probe --moves --json --condition " + condition + " --tables " + tables_.string() + " '" +
                           Fen + "'"));
    nlohmann::json j = nlohmann::json::parse(r->body);
    EXPECT_EQ(j["condition"], condition);
    ASSERT_FALSE(j["moves"].empty());
    EXPECT_TRUE(j["moves"][0].contains("fen_after"));
    EXPECT_TRUE(j["moves"][0].contains("pv"));
    EXPECT_TRUE(j["moves"][0].contains("pv_san"));
    EXPECT_TRUE(j["moves"][0].contains("san"));
  }
}

TEST_F(Serve, BadInputIsA4xxWithAJsonError) {
  expect_error("/api/probe?fen=" + encode("8/8/8/8/8/3X4/8/k1K5 w - - 0 1"), 400, "invalid argument",
               "unknown piece letter 'X'");
  expect_error("/api/moves?fen=" + encode("garbage"), 400, "invalid argument", "bad FEN");
  expect_error("/api/probe?fen=" + encode(Fen) + "&condition=nosuch", 400, "invalid argument",
               "unknown condition 'nosuch'");
  expect_error("/api/moves?fen=" + encode("8/8/8/8/8/2Q5/8/k1K5 w - - 0 1"), 400, "invalid argument",
               "illegal position");
  expect_error("/api/probe", 400, "invalid argument", "missing parameter 'fen'");
  expect_error("/api/probe?fen=" + encode("8/8/8/8/8/3B4/8/k1K5 w - - 0 1"), 404, "not found", "missing table KBvK");
  expect_error("/api/nothing", 404, "not found", "no such API path");
  expect_error("/api/diagram?fen=" + encode(Fen) + "&size=big", 400, "invalid argument", "bad size");
  expect_error("/api/probe?fen=" + encode(Fen) + "&tree=wide", 400, "invalid argument", "bad tree 'wide'");
  // Issue 24: the server's own errors used to come with an empty body.
  expect_error("/api/probe?fen=" + std::string(9000, 'x'), 414, "invalid argument", "the request is longer than");
  expect_error("/nothing.html", 404, "not found", "no such page");
}

// An exploratory test's findings: the API's bounds are the command line's (a size above
// 10000 was drawn at 10000; tree and solutions stopped at 999), an empty parameter counts
// as not given, a statistics request names one material, a '+' typed in a condition.
TEST_F(Serve, ParametersTakeTheCommandLinesBoundsAndEmptyMeansNotGiven) {
  expect_error("/api/diagram?fen=" + encode(Fen) + "&size=10001", 400, "invalid argument",
               "bad size '10001' (expected 16 to 10000)");
  expect_error("/api/probe?fen=" + encode(Fen) + "&tree=1001", 400, "invalid argument", "(expected 1 to 1000)");
  expect_error("/api/help?fen=" + encode("k7/2K5/8/8/8/8/8/1R6 b - - 0 1") + "&solutions=10001", 400,
               "invalid argument", "(expected 1 to 10000)");
  httplib::Result r = get("/api/probe?fen=" + encode(Fen) + "&tree=1000");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  r = get("/api/probe?fen=" + encode(Fen) + "&tree=");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->body, run("probe --json --tables " + tables_.string() + " '" + Fen + "'"));
  expect_error("/api/stat?material=KQvK&fen=" + encode(Fen), 400, "invalid argument", "material or fen, not both");
  expect_error("/api/stat", 400, "invalid argument", "missing parameter 'material' or 'fen'");
  expect_error("/api/help-stat?material=KRvK&stipulation=%23", 400, "invalid argument", "direct mates are /api/stat");
  // "madrasi-ri+annan" typed in an address arrives as "madrasi-ri annan".
  expect_error("/api/probe?fen=" + encode(Fen) + "&condition=madrasi-ri+annan", 404, "not found",
               "condition madrasi-ri+annan");
}

// The viewer is read only: other methods are 405 with the methods it takes, also a POST
// without a body (refused before it is routed); a request that is not HTTP says so.
TEST_F(Serve, OtherMethodsAre405AndUnreadableRequestsSaySo) {
  httplib::Client client("127.0.0.1", port_);
  client.set_read_timeout(10);
  for (const char* path : {"/", "/api/probe"}) {
    httplib::Result post = client.Post(path, "x=1", "application/x-www-form-urlencoded");
    ASSERT_TRUE(post) << path;
    EXPECT_EQ(post->status, 405) << path << ": " << post->body;
    EXPECT_EQ(post->get_header_value("Allow"), "GET, HEAD");
    httplib::Result del = client.Delete(path);
    ASSERT_TRUE(del) << path;
    EXPECT_EQ(del->status, 405) << path;
  }
  const std::string reply = raw_exchange("POST /api/probe HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(reply.rfind("HTTP/1.1 405", 0), 0u) << reply;
  // A target in absolute form, as HTTP/1.1 allows, reaches the same API.
  const std::string absolute =
      raw_exchange("GET http://127.0.0.1/api/probe?fen=" + encode(Fen) + " HTTP/1.1\r\nHost: x\r\n\r\n");
  EXPECT_EQ(absolute.rfind("HTTP/1.1 200", 0), 0u) << absolute;
  EXPECT_NE(absolute.find("\"mate_in\":1"), std::string::npos) << absolute;
  // Other methods on it are 405 as on the same path (they were 404), with a body or without;
  // a path outside the page and the API stays 404.
  for (const char* request :
       {"POST http://x/api/stat?material=KQvK HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        "DELETE http://x/api/probe HTTP/1.1\r\nHost: x\r\n\r\n", "POST http://x/ HTTP/1.1\r\nHost: x\r\n\r\n"}) {
    const std::string answer = raw_exchange(request);
    EXPECT_EQ(answer.rfind("HTTP/1.1 405", 0), 0u) << request << answer;
    EXPECT_NE(answer.find("Allow: GET, HEAD"), std::string::npos) << request << answer;
  }
  const std::string elsewhere = raw_exchange("POST http://x/other HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
  EXPECT_EQ(elsewhere.rfind("HTTP/1.1 404", 0), 0u) << elsewhere;
  const std::string garbage = raw_exchange("GARBAGE\r\n\r\n");
  EXPECT_EQ(garbage.rfind("HTTP/1.1 400", 0), 0u) << garbage;
  EXPECT_NE(garbage.find("could not be read"), std::string::npos) << garbage;
}

// Found by an exploratory test of the server under hostile clients:
//  - a request that cannot be read was answered 400 once per leftover header line (each
//    read as a request, up to the keep-alive limit), its connection kept open;
//  - a POST's body was read whole (a gzip one decompressed) before the 405; a 100 MB
//    Content-Length with no body now has its 405 at once, and the connection closed.
TEST_F(Serve, AnUnreadableRequestOrABodyIsAnsweredOnceAndTheConnectionClosed) {
  bool closed = false;
  const std::string bad = exchange_until_closed("BREW / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n", closed);
  EXPECT_TRUE(closed) << bad;
  EXPECT_EQ(bad.rfind("HTTP/1.1 400", 0), 0u) << bad;
  EXPECT_EQ(bad.find("HTTP/1.1 400", 1), std::string::npos) << "answered more than once: " << bad;
  EXPECT_NE(bad.find("Connection: close"), std::string::npos) << bad;
  const auto start = std::chrono::steady_clock::now();
  const std::string post = exchange_until_closed(
      "POST /api/probe HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\nsome of it", closed);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(closed) << post;
  EXPECT_EQ(post.rfind("HTTP/1.1 405", 0), 0u) << post;
  EXPECT_NE(post.find("Connection: close"), std::string::npos) << post;
  // Answered and closed without waiting for the body (the server's deadline for a
  // request is 5 s).
  EXPECT_LT(seconds, 2.5) << post;
}

// Requests a client sends before their answers (pipelined, in one packet) are each
// answered in turn: the server's read buffer holds the next request, and it must not wait
// on the socket for bytes it already has.
TEST_F(Serve, PipelinedRequestsAreEachAnswered) {
  const std::string get = "GET /api/stat?material=KQvK HTTP/1.1\r\nHost: x\r\n";
  bool closed = false;
  const std::string replies =
      exchange_until_closed(get + "\r\n" + get + "\r\n" + get + "Connection: close\r\n\r\n", closed);
  EXPECT_TRUE(closed) << replies;
  std::size_t answers = 0;
  for (std::size_t at = replies.find("HTTP/1.1 200"); at != std::string::npos;
       at = replies.find("HTTP/1.1 200", at + 1))
    ++answers;
  // A server waiting on the socket for the second request would give up after its 2 s
  // keep-alive wait and close the connection after one answer.
  EXPECT_EQ(answers, 3u) << replies;
}

// A request trickled in a byte at a time, each byte within the 2 s idle timeout, no
// longer holds its connection for ever: it is cut off 5 s after its first byte.
TEST_F(Serve, ARequestTrickledInIsCutOff) {
  const int s = connect_to_server();
  ASSERT_GE(s, 0);
  const std::string request = "GET /api/probe?fen=x HTTP/1.1\r\nHost: x\r\nX-Pad: " + std::string(100, 'a');
  const auto start = std::chrono::steady_clock::now();
  bool closed = false;
  for (char c : request) {
    if (send(s, &c, 1, MSG_NOSIGNAL) != 1) {
      closed = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    char byte;
    const ssize_t n = recv(s, &byte, 1, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
      closed = true;
      break;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  close(s);
  EXPECT_TRUE(closed) << "still open after " << seconds << " s";
  EXPECT_LT(seconds, 15.0);
}

// Issue 27 B: bytes that are not UTF-8 (Latin-1, a cut sequence) in a parameter are a 400
// with a JSON error quoting them escaped, not a 500 from the JSON writer.
TEST_F(Serve, Reliability27B_NonUtf8ParameterIsA400) {
  expect_error("/api/probe?fen=" + encode("8/8/8/8/8/3\xe9"
                                          "4/8/k1K5 w - - 0 1"),
               400, "invalid argument", "unknown piece letter '\\xe9'");
  expect_error("/api/moves?fen=" + encode("8/8/8/8/8/3\xd0"
                                          "4/8/k1K5 w - - 0 1"),
               400, "invalid argument", "'\\xd0'");
  expect_error("/api/probe?fen=" + encode(Fen) + "&condition=" + encode("madr\xe4si"), 400, "invalid argument",
               "unknown condition 'madr\\xe4si'");
  expect_error("/api/probe?fen=" + encode("8/8/8/8/8/3\xd0\xa4"
                                          "4/8/k1K5 w - - 0 1"),
               400, "invalid argument",
               "unknown piece letter '\xd0\xa4'");  // valid UTF-8 is quoted as it is
}

// Issue 27 F: 30 connections that send nothing (as slow or half-open clients do) no
// longer keep a normal request waiting until they time out: it is answered while they
// are still open (it once waited 28.5 s for 8 workers with 5 s read timeouts).
TEST_F(Serve, Reliability27F_IdleConnectionsDoNotStallARequest) {
  ASSERT_TRUE(get("/api/probe?fen=" + encode(Fen)));  // the table opened before the clock matters
  std::vector<int> idle;
  for (int i = 0; i < 30; ++i) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(std::uint16_t(port_));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    idle.push_back(s);
  }
  httplib::Result r = get("/api/probe?fen=" + encode(Fen));
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
  // Answered while every idle connection is still open: not after the server gave up on
  // them (it closes a connection idle for 2 s).
  char byte;
  for (int s : idle) EXPECT_EQ(recv(s, &byte, 1, MSG_DONTWAIT), -1) << "answered only after idle ones were closed";
  for (int s : idle) {
    timeval wait{5, 0};
    setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &wait, sizeof wait);
    EXPECT_EQ(recv(s, &byte, 1, 0), 0) << "an idle connection was not closed";
    close(s);
  }
}

// Issue 27: the viewer holds a bounded number of connections per client. 40 idle
// connections from 127.0.0.2: 32 are held (half the workers), the other 8 answered 503 at
// once and closed; a client at another address (127.0.0.1) is served meanwhile.
TEST_F(Serve, Reliability27F_OneClientHoldsAtMostHalfTheWorkers) {
  ASSERT_TRUE(get("/api/probe?fen=" + encode(Fen)));
  std::vector<int> connections;
  for (int i = 0; i < 40; ++i) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in from{};
    from.sin_family = AF_INET;
    from.sin_addr.s_addr = htonl(0x7f000002);  // 127.0.0.2: loopback, another address
    ASSERT_EQ(bind(s, reinterpret_cast<sockaddr*>(&from), sizeof from), 0) << std::strerror(errno);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(std::uint16_t(port_));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(connect(s, reinterpret_cast<sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
    connections.push_back(s);
  }
  httplib::Result r = get("/api/probe?fen=" + encode(Fen));
  ASSERT_TRUE(r) << httplib::to_string(r.error());
  EXPECT_EQ(r->status, 200);
  // Within the 2 s idle timeout: the refused ones have their answer, the held ones none
  // (waiting up to 1.5 s for the 8 answers on a busy machine).
  int refused = 0, held = 0;
  for (auto start = std::chrono::steady_clock::now();
       std::chrono::steady_clock::now() - start < std::chrono::milliseconds(1500);) {
    refused = held = 0;
    for (int s : connections) {
      char byte;
      const ssize_t n = recv(s, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
      refused += n > 0;
      held += n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
    }
    if (refused >= 8) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  for (int s : connections) {
    char buffer[512];
    const ssize_t n = recv(s, buffer, sizeof buffer - 1, MSG_DONTWAIT);
    if (n <= 0) continue;
    buffer[n] = 0;
    EXPECT_EQ(std::string(buffer).rfind("HTTP/1.1 503", 0), 0u) << buffer;
    EXPECT_NE(std::string(buffer).find("\"error_kind\": \"resource limit\""), std::string::npos) << buffer;
  }
  EXPECT_EQ(refused, 8);
  EXPECT_EQ(held, 32);
  for (int s : connections) close(s);
}

// Issue 27 G: a --tables that is a file or does not exist is refused at start; issue 24:
// a second server cannot start on a port the first holds (SO_REUSEPORT once let it, and
// the two shared the requests).
TEST_F(Serve, Reliability27G_BadTablesOrTakenPortIsRefusedAtStart) {
  const std::string feerie = FEERIE_BINARY;
  auto exit_code = [](const std::string& command) {
    int status = std::system((command + " > /dev/null 2>&1").c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  };
  EXPECT_EQ(exit_code(feerie + " serve --port 0 --tables /nonexistent-feerie-tables"), 2);
  EXPECT_EQ(exit_code(feerie + " serve --port 0 --tables " + std::string(FEERIE_BINARY)), 2);
  // An address that names nothing is a bad option, not a failure to listen.
  EXPECT_EQ(exit_code(feerie + " serve --port 0 --host 999.1.1.1 --tables " + tables_.string()), 2);
  EXPECT_EQ(exit_code(feerie + " serve --port abc --tables " + tables_.string()), 2);
  EXPECT_EQ(
      exit_code("timeout 10 " + feerie + " serve --tables " + tables_.string() + " --port " + std::to_string(port_)),
      5);
}

TEST_F(Serve, DiagramIsTheSvgOfTheRenderer) {
  httplib::Result r = get("/api/diagram?fen=" + encode(Fen) + "&condition=madrasi-ri&size=300");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "image/svg+xml");
  EXPECT_EQ(r->body, run("diagram --size 300 --condition madrasi-ri '" + Fen + "'"));
}

TEST_F(Serve, ThePageNeedsNothingFromElsewhere) {
  httplib::Result r = get("/");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "text/html; charset=utf-8");
  for (const char* part : {"id=\"board\"", "id=\"fen\"", "id=\"condition\"", "id=\"moves\"", "id=\"pv\"", "id=\"back\"",
                           "id=\"forward\"", "/api/moves", "/api/diagram", "const defaultCondition = \"orthodox\";"})
    EXPECT_NE(r->body.find(part), std::string::npos) << part;
  for (const char* external : {"http://", "https://", "src=", "<link", "@import"})
    EXPECT_EQ(r->body.find(external), std::string::npos) << external;
}

}  // namespace

// The page in a real browser: headless Chromium (Debian package chromium) opens a position
// with `moves=` (the page clicks that move's button, as a user would), and the DOM it
// leaves shows the board and the move list of the position after the move. A screenshot
// of it is kept as a test artefact (FEERIE_ARTIFACT_DIR/serve_screenshot.png).
namespace {

std::string chromium() {
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"})
    if (fs::exists(path)) return path;
  return "";
}

// The standard output of a shell command.
std::string output_of(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  std::string out;
  if (!pipe) return out;
  std::array<char, 4096> buffer;
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) out.append(buffer.data(), n);
  pclose(pipe);
  return out;
}

std::string run_chromium(const std::string& args) {
  std::string profile = (fs::temp_directory_path() / ("feerie_serve_chromium_" + std::to_string(getpid()))).string();
  std::string command = "timeout 120 " + chromium() + " --headless --no-sandbox --disable-gpu --no-proxy-server" +
                        " --user-data-dir=" + profile + " --virtual-time-budget=10000 " + args + " 2>/dev/null";
  const std::string out = output_of(command);
  std::error_code ignored;
  fs::remove_all(profile, ignored);
  return out;
}

// What the page shows after `actions` (tests/tools/page_driver.py: clicks that come while
// the next position is loading, answers held back and let through out of order).
nlohmann::json drive_page(const std::string& url, const std::string& actions) {
  const std::string command = "timeout 180 python3 " + std::string(FEERIE_SOURCE_DIR) + "/tests/tools/page_driver.py " +
                              chromium() + " '" + url + "' " + actions;
  return nlohmann::json::parse(output_of(command), nullptr, false);
}

int count(const std::string& text, const std::string& part) {
  int n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Helpmate tables (issue 25): /api/help is `probe --stipulation h# --json --solutions N`
// with every move and the entry after it, /api/help-stat is `stat --stipulation h# --json`;
// a direct mate or an unknown stipulation is a 400, a missing table a 404.
TEST_F(Serve, HelpGivesWhatProbeStipulationJsonPrints) {
  const std::string fen = "8/8/8/7R/8/2K5/5k2/8 b - - 0 1";  // h#2, one solution
  httplib::Result r = get("/api/help?fen=" + encode(fen) + "&stipulation=h%23&solutions=5");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  nlohmann::json page = nlohmann::json::parse(r->body);
  nlohmann::json cli = nlohmann::json::parse(
      run("probe --stipulation h# --solutions 5 --json --tables " + tables_.string() + " '" + fen + "'"));
  nlohmann::json moves = page["moves"];
  page.erase("moves");
  EXPECT_EQ(page, cli);
  EXPECT_EQ(page["solution_lines"][0], "1.Ke1 Kd3 2.Kd1 Rh1#");
  // Every legal move, each with the entry after it as probe gives it.
  nlohmann::json legal = nlohmann::json::parse(run("moves --json '" + fen + "'"));
  ASSERT_EQ(moves.size(), legal.size());
  for (const auto& m : moves) {
    nlohmann::json after = nlohmann::json::parse(run("probe --stipulation h# --json --tables " + tables_.string() +
                                                     " '" + m["fen_after"].get<std::string>() + "'"));
    EXPECT_EQ(m["plies"], after["plies"]) << m;
    EXPECT_EQ(m["solutions"], after["solutions"]) << m;
  }
  // White mated: KRvK has none.
  r = get("/api/help?fen=" + encode(fen) + "&stipulation=h%23&mated=white");
  ASSERT_TRUE(r);
  EXPECT_EQ(nlohmann::json::parse(r->body)["helpmate"], false) << r->body;

  r = get("/api/help-stat?material=KRvK&stipulation=h%23");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(nlohmann::json::parse(r->body),
            nlohmann::json::parse(run("stat --stipulation h# --json --tables " + tables_.string() + " KRvK")));
  // The other orientation is the stored one with the other colour mated.
  r = get("/api/help-stat?material=KvKR&stipulation=h%23&mated=white");
  ASSERT_TRUE(r);
  EXPECT_EQ(nlohmann::json::parse(r->body)["mated"], "black") << r->body;

  expect_error("/api/help?fen=" + encode(fen) + "&stipulation=%23", 400, "invalid argument", "/api/probe");
  expect_error("/api/help?fen=" + encode(fen) + "&stipulation=x%23", 400, "invalid argument", "unknown stipulation");
  // Bytes that are not UTF-8 quoted as \xNN (they came back as U+FFFD), the parameter named
  // as the API's (it was "--mated"), and a long value by its first bytes (it was echoed whole).
  expect_error("/api/help?fen=" + encode(fen) + "&stipulation=%FF", 400, "invalid argument", "'\\xff'");
  expect_error("/api/help?fen=" + encode(fen) + "&stipulation=h%23&mated=%01x", 400, "invalid argument",
               "the mated side is white or black, not '\\x01x'");
  for (const std::string parameter : {"condition", "stipulation", "mated"}) {
    const std::string stipulation = parameter == "stipulation" ? "" : "&stipulation=h%23";
    httplib::Result r =
        get("/api/help?fen=" + encode(fen) + stipulation + "&" + parameter + "=" + std::string(8000, 'a'));
    ASSERT_TRUE(r) << parameter;
    EXPECT_EQ(r->status, 400) << parameter;
    EXPECT_LT(r->body.size(), 600u) << parameter << ": " << r->body;
    EXPECT_NE(r->body.find("... (8000 bytes)"), std::string::npos) << parameter << ": " << r->body;
  }
  expect_error("/api/help?fen=" + encode(fen) + "&stipulation=h%23&solutions=0", 400, "invalid argument",
               "bad solutions");
  // Refused as on the command line (both were read, the first and nothing, before).
  expect_error("/api/help?fen=" + encode(fen) + "&stipulation=s%23&solutions=3", 400, "invalid argument",
               "solutions= is for stipulation=h#");
  expect_error("/api/help?fen=" + encode(fen) + "&stipulation=h%23&stipulation=s%23", 400, "invalid argument",
               "parameter 'stipulation' is given more than once");
  // A parameter the path does not read was passed over: /api/probe answered the direct
  // mate to a helpmate's stipulation.
  expect_error("/api/probe?fen=" + encode(fen) + "&stipulation=h%23", 400, "invalid argument",
               "unknown parameter 'stipulation' (/api/probe takes fen, condition, tree)");
  expect_error("/api/diagram?fen=" + encode(fen) + "&tree=3", 400, "invalid argument", "unknown parameter 'tree'");
  expect_error("/api/help?fen=" + encode("8/8/8/3k4/8/8/8/Q3K3 w - - 0 1") + "&stipulation=h%23", 404, "not found",
               "KQvK");
}

TEST_F(Serve, BrowserClicksAMoveAndTheBoardAndTheListFollow) {
  if (chromium().empty()) GTEST_SKIP() << "no headless Chromium (Debian package chromium)";
  const std::string start = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";  // KRvK
  const std::string after = "8/8/8/3k4/R7/8/8/4K3 b - - 0 1";  // after a1a4
  std::string url = "'http://127.0.0.1:" + std::to_string(port_) + "/?fen=" + encode(start) + "&moves=a1a4'";
  std::string dom = run_chromium("--dump-dom " + url);
  ASSERT_NE(dom.find("data-ready=\"true\""), std::string::npos) << dom;
  EXPECT_NE(dom.find("<div id=\"error\" role=\"alert\"></div>"), std::string::npos) << "an error is shown";

  // The board is the position after the move, with its three units.
  EXPECT_NE(dom.find("data-fen=\"" + after + "\""), std::string::npos);
  EXPECT_EQ(count(dom, "class=\"piece\""), 3);
  EXPECT_NE(dom.find("data-piece=\"wR\" data-square=\"a4\""), std::string::npos);
  // The list holds the legal moves of that position, each with a value and a button.
  nlohmann::json moves = nlohmann::json::parse(run("moves --json '" + after + "'"));
  EXPECT_EQ(count(dom, "<tr class="), int(moves.size()));
  for (const auto& m : moves) EXPECT_NE(dom.find("data-move=\"" + m.get<std::string>() + "\""), std::string::npos) << m;
  EXPECT_EQ(count(dom, "<button class=\"move\""), int(moves.size()));
  EXPECT_NE(dom.find("<div id=\"value\">Black to move is mated in"), std::string::npos);
  // Moves and lines in SAN (issue 24): the king's moves as buttons "Kc5" ..., lines numbered.
  EXPECT_NE(dom.find(">Kc5</button>"), std::string::npos) << dom;
  EXPECT_NE(dom.find("<span id=\"pv\">1...K"), std::string::npos) << dom;
  // The whole solution under it (issue 24).
  EXPECT_NE(dom.find("<pre id=\"tree\">1...K"), std::string::npos) << dom;
  EXPECT_NE(dom.find("move 1 of the line"), std::string::npos);  // and back is possible
  EXPECT_NE(dom.find("<div id=\"stats\">KRvK (orthodox)\nWhite to move: "), std::string::npos) << "no statistics";

  // A line through an illegal move stops with a message on the page.
  dom =
      run_chromium("--dump-dom 'http://127.0.0.1:" + std::to_string(port_) + "/?fen=" + encode(start) + "&moves=a1h8'");
  EXPECT_NE(dom.find("move a1h8 is not legal"), std::string::npos) << dom;
  // A bad FEN is shown as the server's message.
  dom = run_chromium("--dump-dom 'http://127.0.0.1:" + std::to_string(port_) + "/?fen=nonsense'");
  EXPECT_NE(dom.find("bad FEN"), std::string::npos) << dom;

  // A helpmate: the stipulation chosen in the address, a move played, the solution left.
  dom = run_chromium("--dump-dom 'http://127.0.0.1:" + std::to_string(port_) +
                     "/?fen=" + encode("8/8/8/7R/8/2K5/5k2/8 b - - 0 1") + "&stipulation=h%23:black&moves=f2e1'");
  EXPECT_NE(dom.find("<div id=\"value\">black mated in 3 plies (h#1.5), 1 solution</div>"), std::string::npos) << dom;
  EXPECT_NE(dom.find("<pre id=\"tree\">1...Kd3 2.Kd1 Rh1#</pre>"), std::string::npos) << dom;
  EXPECT_NE(dom.find("<div id=\"stats\">KRvK (orthodox), h#, black mated\nWhite to move: 175,168 positions"),
            std::string::npos)
      << dom;
  EXPECT_NE(dom.find("<option value=\"h#:black\" selected"), std::string::npos) << "the stipulation is not shown";

  std::string screenshot = std::string(FEERIE_ARTIFACT_DIR) + "/serve_screenshot.png";
  fs::remove(screenshot);
  run_chromium("--hide-scrollbars --window-size=1200,900 --screenshot=" + screenshot + " " + url);
  EXPECT_TRUE(fs::exists(screenshot) && fs::file_size(screenshot) > 10000) << screenshot;
}

// Regression tests of an exploratory test of the page. The page always shows the position of
// its FEN field: answers for a position the user has left (back then forward before the
// first answer came) used to overwrite it, and a move clicked twice while the next position
// loaded was played twice.
TEST_F(Serve, BrowserDropsTheAnswersForAPositionLeft) {
  if (chromium().empty()) GTEST_SKIP() << "no headless Chromium (Debian package chromium)";
  const std::string start = "8/8/8/3k4/8/8/8/R3K3 w - - 0 1";
  const std::string after = "8/8/8/3k4/R7/8/8/4K3 b - - 0 1";  // after a1a4
  const std::string url = "http://127.0.0.1:" + std::to_string(port_) + "/?fen=" + encode(start);
  nlohmann::json shown = drive_page(url + "&moves=a1a4", "hold back forward release-reversed");
  ASSERT_TRUE(shown.is_object()) << shown;
  EXPECT_EQ(shown["fen"], after) << shown;
  EXPECT_EQ(shown["board"], after) << shown;
  EXPECT_EQ(shown["ply"], "move 1 of the line") << shown;
  EXPECT_EQ(shown["value"].get<std::string>().rfind("Black to move is mated in", 0), 0u) << shown;

  shown = drive_page(url, "click:a1a4 click:a1a4");
  ASSERT_TRUE(shown.is_object()) << shown;
  EXPECT_EQ(shown["board"], after) << shown;
  EXPECT_EQ(shown["ply"], "move 1 of the line") << shown;
  EXPECT_EQ(shown["forward_disabled"], true) << shown;
}

// The server's message stays on the page when the FEN's own position has none to show (a
// line of moves from it used to replace the message with "move ... is not legal"), with the
// board of that FEN; a FEN typed with two spaces numbers its lines from the right side; the
// statistics of a material stored the other way round say so.
TEST_F(Serve, BrowserShowsTheServersMessageAndTheBoardOfTheFenAsked) {
  if (chromium().empty()) GTEST_SKIP() << "no headless Chromium (Debian package chromium)";
  const std::string page = "'http://127.0.0.1:" + std::to_string(port_) + "/?fen=";
  const std::string no_table = "4k3/8/8/8/8/8/8/2RQK3 w - - 0 1";  // KQRvK: not in the tables
  std::string dom = run_chromium("--dump-dom " + page + encode(no_table) + "&moves=d1d2'");
  EXPECT_NE(dom.find("<div id=\"error\" role=\"alert\">missing table KQRvK"), std::string::npos) << dom;
  EXPECT_NE(dom.find("data-fen=\"" + no_table + "\""), std::string::npos) << dom;

  dom = run_chromium("--dump-dom " + page + encode("8/8/8/3k4/8/8/8/R3K3  w - - 0 1") + "'");
  EXPECT_NE(dom.find("<span id=\"pv\">1.R"), std::string::npos) << dom;

  dom = run_chromium("--dump-dom " + page + encode("8/8/8/3K4/8/8/8/r3k3 b - - 0 1") + "'");
  EXPECT_NE(dom.find("<div id=\"stats\">KRvK (orthodox) - stored with the colours the other way round"),
            std::string::npos)
      << dom;
}

}  // namespace
