// Webhook addresses (server/notices/notice_addresses.h): every IPv6 spelling of an internal IPv4
// address is refused as that address is, in a URL's literal and in a resolved address alike,
// while public addresses in the same forms pass.

#include <gtest/gtest.h>

#include <string>

#include "server/notices/notice_addresses.h"

namespace blockfog::server::testing {
namespace {

TEST(WebhookAddresses, IPv6FormsOfInternalIPv4AddressesAreInternal) {
  for (const char* address : {"::127.0.0.1",               // IPv4-compatible
                              "::7f00:1",                  // the same, in hex
                              "::10.0.0.1",                //
                              "::",                        // unspecified (0.0.0.0)
                              "::1",                       // loopback (0.0.0.1 as compatible)
                              "::ffff:127.0.0.1",          // IPv4-mapped
                              "::ffff:192.168.1.1",        //
                              "::ffff:0:127.0.0.1",        // IPv4-translated (RFC 2765)
                              "::ffff:0:169.254.169.254",  //
                              "64:ff9b::127.0.0.1",        // NAT64, the well-known prefix
                              "64:ff9b::a00:1",            // 10.0.0.1
                              "64:ff9b::100.64.0.1",       // carrier-grade NAT
                              "64:ff9b:1::1",              // local-use NAT64 (RFC 8215), any form
                              "64:ff9b:1:7f00:1::",        //
                              "64:ff9b:1::8.8.8.8",        //
                              "2002:7f00:1::1",            // 6to4 of 127.0.0.1
                              "2002:c0a8:101::1",          // 6to4 of 192.168.1.1
                              "2001:0:4136:e378:8000:63bf:80ff:fffe",  // Teredo, client 127.0.0.1
                              "fec0::1",                               // site-local
                              "feff::1",                               //
                              "fe80::1",
                              "febf::1",  // link-local
                              "fc00::1",
                              "fd12:3456::1",  // unique local
                              "ff02::1",       // multicast
                              "127.0.0.1",
                              "10.1.2.3",
                              "172.16.0.1",
                              "192.168.0.1",
                              "169.254.169.254",
                              "100.64.0.1",
                              "0.0.0.0",
                              "224.0.0.1",
                              "255.255.255.255",
                              "not an address"}) {
    EXPECT_TRUE(is_internal_address(address)) << address;
  }
}

TEST(WebhookAddresses, PublicAddressesInTheSameFormsAreNot) {
  for (const char* address :
       {"8.8.8.8", "::8.8.8.8", "::ffff:8.8.8.8", "::ffff:0:8.8.8.8", "64:ff9b::8.8.8.8",
        "2002:808:808::1", "2001:0:4136:e378:8000:63bf:f7f7:f7f7", "2606:4700:4700::1111",
        "2a00:1450:4001:80b::200e"}) {
    EXPECT_FALSE(is_internal_address(address)) << address;
  }
}

TEST(WebhookAddresses, TheHostHeaderNamesAPortThatIsNotTheSchemes) {
  std::string problem;
  const auto host = [&](const char* url) {
    const auto parsed = parse_webhook_url(url, true, true, problem);
    EXPECT_TRUE(parsed) << url << ": " << problem;
    return parsed ? host_header(*parsed) : std::string();
  };
  EXPECT_EQ(host("https://hooks.example.org/x"), "hooks.example.org");
  EXPECT_EQ(host("https://hooks.example.org:443/x"), "hooks.example.org");
  EXPECT_EQ(host("https://hooks.example.org:8443/x"), "hooks.example.org:8443");
  EXPECT_EQ(host("http://hooks.example.org:80/x"), "hooks.example.org");
  EXPECT_EQ(host("http://hooks.example.org:443/x"), "hooks.example.org:443");
  EXPECT_EQ(host("https://[2001:db8::1]:9000/x"), "[2001:db8::1]:9000");
  EXPECT_EQ(host("https://[2001:db8::1]/x"), "[2001:db8::1]");
}

TEST(WebhookAddresses, UrlsWithTheseLiteralsAreRefused) {
  for (const char* host :
       {"[::127.0.0.1]", "[::ffff:0:127.0.0.1]", "[64:ff9b::127.0.0.1]", "[fec0::1]",
        "[::ffff:127.0.0.1]", "[64:ff9b:1::a00:1]", "[2002:7f00:1::1]", "[::1]", "127.0.0.1"}) {
    std::string problem;
    const std::string url = std::string("https://") + host + ":8443/hook";
    EXPECT_FALSE(parse_webhook_url(url, false, false, problem)) << url;
    EXPECT_NE(problem.find("private"), std::string::npos) << url << ": " << problem;
    // The operator may allow them (--webhook-allow private), for local testing.
    std::string none;
    EXPECT_TRUE(parse_webhook_url(url, false, true, none)) << url << ": " << none;
  }
  std::string problem;
  EXPECT_TRUE(parse_webhook_url("https://[64:ff9b::8.8.8.8]/hook", false, false, problem))
      << problem;
}

}  // namespace
}  // namespace blockfog::server::testing
