#include "tests/server/notice_endpoints.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace blockfog::server::testing {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
namespace beast = boost::beast;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;

bool port_open(int port) {
  net::io_context ioc;
  tcp::socket socket(ioc);
  boost::system::error_code ec;
  socket.connect({net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)}, ec);
  return !ec;
}

}  // namespace

SilentListener::SilentListener() {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::listen(fd_, 64) != 0 ||
      ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw std::runtime_error("silent listener: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(address.sin_port);
}

SilentListener::~SilentListener() {
  if (fd_ >= 0) ::close(fd_);
}

TestCertificate make_certificate(const std::filesystem::path& dir) {
  TestCertificate c{dir / "notice-cert.pem", dir / "notice-key.pem"};
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost"
      " -addext subjectAltName=DNS:localhost,IP:127.0.0.1"
      " -addext basicConstraints=critical,CA:TRUE -keyout " +
      c.key.string() + " -out " + c.cert.string() + " 2>/dev/null";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("openssl req failed");
  return c;
}

struct WebhookReceiver::Impl {
  net::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::unique_ptr<ssl::context> tls;
  mutable std::mutex mutex;
  mutable std::condition_variable changed;
  std::vector<WebhookRequest> received;
  int status = 204;
  std::string location;
  bool holding = false;
  std::atomic<bool> stopping{false};
  std::thread thread;

  template <typename Stream>
  void serve(Stream& stream, int peer_port) {
    beast::flat_buffer buffer;
    http::request<http::string_body> request;
    boost::system::error_code ec;
    http::read(stream, buffer, request, ec);
    if (ec) return;
    int answer_status = 0;
    std::string answer_location;
    {
      std::lock_guard lock(mutex);
      received.push_back({std::string(request.target()),
                          std::string(request[http::field::content_type]),
                          std::string(request["Blockfog-Notice-Id"]), request.body(),
                          std::string(request[http::field::host]), peer_port});
    }
    changed.notify_all();
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return !holding || stopping; });
      answer_status = status;
      answer_location = location;
    }
    http::response<http::string_body> response{static_cast<http::status>(answer_status), 11};
    if (!answer_location.empty()) response.set(http::field::location, answer_location);
    response.keep_alive(false);
    response.prepare_payload();
    http::write(stream, response, ec);
  }

  void run() {
    while (!stopping) {
      tcp::socket socket(ioc);
      boost::system::error_code ec;
      acceptor.accept(socket, ec);
      if (ec || stopping) return;
      const int peer_port = socket.remote_endpoint(ec).port();
      if (tls) {
        ssl::stream<tcp::socket> stream(std::move(socket), *tls);
        stream.handshake(ssl::stream_base::server, ec);
        if (!ec) serve(stream, peer_port);
        stream.shutdown(ec);
      } else {
        serve(socket, peer_port);
        socket.shutdown(tcp::socket::shutdown_both, ec);
      }
    }
  }
};

WebhookReceiver::WebhookReceiver(int port, const TestCertificate* cert)
    : impl_(std::make_unique<Impl>()) {
  const tcp::endpoint endpoint(net::ip::make_address("127.0.0.1"),
                               static_cast<unsigned short>(port));
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(net::socket_base::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  port_ = impl_->acceptor.local_endpoint().port();
  if (cert) {
    impl_->tls = std::make_unique<ssl::context>(ssl::context::tls_server);
    impl_->tls->use_certificate_chain_file(cert->cert.string());
    impl_->tls->use_private_key_file(cert->key.string(), ssl::context::pem);
  }
  impl_->thread = std::thread([impl = impl_.get()] { impl->run(); });
}

WebhookReceiver::~WebhookReceiver() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->stopping = true;
  }
  impl_->changed.notify_all();
  port_open(port_);  // wakes the blocking accept
  impl_->thread.join();
}

void WebhookReceiver::answer(int status, std::string location) {
  std::lock_guard lock(impl_->mutex);
  impl_->status = status;
  impl_->location = std::move(location);
}

void WebhookReceiver::hold() {
  std::lock_guard lock(impl_->mutex);
  impl_->holding = true;
}

void WebhookReceiver::release() {
  {
    std::lock_guard lock(impl_->mutex);
    impl_->holding = false;
  }
  impl_->changed.notify_all();
}

std::vector<WebhookRequest> WebhookReceiver::received() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->received;
}

bool WebhookReceiver::wait_for(std::size_t count, std::chrono::seconds timeout) const {
  std::unique_lock lock(impl_->mutex);
  return impl_->changed.wait_for(lock, timeout, [&] { return impl_->received.size() >= count; });
}

SmtpServer::SmtpServer(const std::filesystem::path& dir, const TestCertificate* cert)
    : mbox_(dir / "received-mail") {
  port_ = free_port();
  std::vector<std::string> args = {
      "/usr/bin/python3", "-m", "aiosmtpd", "-n", "-l", "127.0.0.1:" + std::to_string(port_)};
  if (cert) {
    args.insert(args.end(), {"--tlscert", cert->cert.string(), "--tlskey", cert->key.string()});
  }
  args.insert(args.end(), {"-c", "aiosmtpd.handlers.Mailbox", mbox_.string()});
  pid_ = fork();
  if (pid_ == 0) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  for (int i = 0; i < 200 && !port_open(port_); ++i) usleep(50'000);
  if (!port_open(port_)) throw std::runtime_error("aiosmtpd did not start");
}

SmtpServer::~SmtpServer() {
  if (pid_ > 0) {
    kill(pid_, SIGTERM);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
}

std::vector<std::string> SmtpServer::messages() const {
  // aiosmtpd's Mailbox handler keeps a Maildir: one file per message in new/, named from the
  // time it arrived.
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(mbox_ / "new", ec)) {
    files.emplace_back(entry.last_write_time(), entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<std::string> out;
  for (const auto& [time, path] : files) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    out.push_back(text.str());
  }
  return out;
}

bool SmtpServer::wait_for(std::size_t count, std::chrono::seconds timeout) const {
  const auto until = std::chrono::steady_clock::now() + timeout;
  while (messages().size() < count) {
    if (std::chrono::steady_clock::now() > until) return false;
    usleep(50'000);
  }
  return true;
}

std::string mail_header(const std::string& message, const std::string& name) {
  std::istringstream in(message);
  std::string line;
  auto lower = [](std::string s) {
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
  };
  const auto wanted = lower(name) + ":";
  std::string value;
  bool found = false;
  while (std::getline(in, line) && !line.empty()) {
    if (found) {
      // A folded header goes on in lines that start with white space (RFC 5322 2.2.3).
      if (line.front() != ' ' && line.front() != '\t') return value;
      value += line.substr(line.find_first_not_of(" \t"));
      continue;
    }
    if (lower(line.substr(0, wanted.size())) == wanted) {
      value = line.substr(wanted.size());
      while (!value.empty() && value.front() == ' ') value.erase(0, 1);
      found = true;
    }
  }
  if (found) return value;
  return "";
}

}  // namespace blockfog::server::testing
