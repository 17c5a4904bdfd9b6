// With --tls-cert and --tls-key the server speaks only HTTPS (and WSS), and its session cookie
// is Secure.

#include <gtest/gtest.h>

#include <cstdlib>

#include "tests/server/server_process.h"
#include "tests/server/test_client.h"

namespace blockfog::server::testing {
namespace {

TEST(ServerTls, ServesHttpsWithSecureCookies) {
  TempDir dir;
  const auto cert = dir.path() / "cert.pem";
  const auto key = dir.path() / "key.pem";
  const std::string command =
      "openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost"
      " -keyout " +
      key.string() + " -out " + cert.string() + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << "openssl (scripts/install-deps.sh) is needed";
  ServerProcess server(dir.path(), {"--tls-cert", cert.string(), "--tls-key", key.string()});

  HttpClient client(server.port(), /*tls=*/true);
  const auto health = client.get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_TRUE(health.headers.contains("strict-transport-security"));
  const auto registered =
      client.post("/api/register", {{"username", "secure"}, {"password", "over-the-wire-1314"}});
  ASSERT_EQ(registered.status, 201) << registered.body;
  EXPECT_NE(registered.headers.at("set-cookie").find("; Secure"), std::string::npos);
  EXPECT_EQ(client.get("/api/me").status, 200);

  // Plain HTTP gets no answer from a TLS listener.
  HttpClient plain(server.port());
  EXPECT_ANY_THROW(plain.get("/healthz"));
}

}  // namespace
}  // namespace blockfog::server::testing
