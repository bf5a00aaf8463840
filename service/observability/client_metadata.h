// A call's metadata (its headers), as gRPC gives a server's handler. The
// Connect listener (service/connect/) builds the same from its HTTP headers,
// so that authentication, languages and trace parents read one type. Apart
// from observability.h so that the server's and the listener's headers need
// not parse the tracing and metrics headers.
#ifndef STUD_SERVICE_OBSERVABILITY_CLIENT_METADATA_H_
#define STUD_SERVICE_OBSERVABILITY_CLIENT_METADATA_H_

#include <map>

#include "grpcpp/support/string_ref.h"

namespace stud::service {

using ClientMetadata = std::multimap<grpc::string_ref, grpc::string_ref>;

}  // namespace stud::service

#endif  // STUD_SERVICE_OBSERVABILITY_CLIENT_METADATA_H_
