#include "tools/cli/token_file.h"

#include <sodium.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "absl/strings/ascii.h"

namespace stud_cli {

bool WriteTokenFile(const std::string& path, const std::string& token) {
  std::string b64(sodium_base64_ENCODED_LEN(token.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(b64.data(), b64.size(), reinterpret_cast<const unsigned char*>(token.data()),
                    token.size(), sodium_base64_VARIANT_ORIGINAL);
  b64.resize(std::strlen(b64.c_str()));
  std::ofstream out(path, std::ios::binary);
  out << b64 << "\n";
  if (!out) std::fprintf(stderr, "stud_cli: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

std::optional<std::string> ReadTokenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string text(absl::StripAsciiWhitespace(bytes));
  std::string bin(text.size(), '\0');
  size_t len = 0;
  if (!text.empty() &&
      sodium_base642bin(reinterpret_cast<unsigned char*>(bin.data()), bin.size(), text.data(),
                        text.size(), nullptr, &len, nullptr, sodium_base64_VARIANT_ORIGINAL) == 0) {
    bin.resize(len);
    return bin;
  }
  return bytes;
}

}  // namespace stud_cli
