// Token files: how a hand's opaque token travels from `run --token_out` to
// `export TOKENFILE`. Written as one line of standard base64; read as base64
// or, when the content is not base64, as the raw token bytes.
#ifndef STUD_TOOLS_CLI_TOKEN_FILE_H_
#define STUD_TOOLS_CLI_TOKEN_FILE_H_

#include <optional>
#include <string>

namespace stud_cli {

// False (after telling stderr) when the file cannot be written.
bool WriteTokenFile(const std::string& path, const std::string& token);

// std::nullopt when the file cannot be read.
std::optional<std::string> ReadTokenFile(const std::string& path);

}  // namespace stud_cli

#endif  // STUD_TOOLS_CLI_TOKEN_FILE_H_
