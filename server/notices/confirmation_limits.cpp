#include "server/notices/confirmation_limits.h"

#include <cctype>

namespace blockfog::server {
namespace {

template <typename Rep, typename Period>
double per_second(std::chrono::duration<Rep, Period> every) {
  return 1.0 / std::chrono::duration<double>(every).count();
}

}  // namespace

ConfirmationLimits::ConfirmationLimits()
    : per_recipient_(per_second(kPerRecipientEvery), kPerRecipientBurst),
      per_address_(per_second(kPerAddressEvery), kPerAddressBurst) {}

std::optional<ConfirmationLimits::Refusal> ConfirmationLimits::take(
    std::string_view recipient, const std::string& client_address, Clock::time_point now) {
  if (!per_address_.allow(client_address, now)) return Refusal::Address;
  if (!per_recipient_.allow(mailbox_key(recipient), now)) return Refusal::Recipient;
  return std::nullopt;
}

std::string ConfirmationLimits::mailbox_key(std::string_view email) {
  const auto at = email.rfind('@');
  const auto local = at == std::string_view::npos ? email : email.substr(0, at);
  const auto domain = at == std::string_view::npos ? std::string_view() : email.substr(at);
  std::string key;
  for (char c : local.substr(0, local.find('+'))) {
    if (c != '.') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  for (char c : domain) key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

}  // namespace blockfog::server
