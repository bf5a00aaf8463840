#!/usr/bin/python3
"""The project's OTLP schema subset (proto/opentelemetry/...) must agree with
the official opentelemetry-proto files shipped in npm
@opentelemetry/otlp-grpc-exporter-base@0.38.0: every message, field, number,
type and label here must exist identically upstream, and the Export method
path must match. Fields upstream added after that snapshot are listed in
NEWER_UPSTREAM (checked against opentelemetry-proto 1.x by hand).

Usage: otlp_schema_test.py SUBSET_DIR OFFICIAL_DIR
"""
import subprocess
import sys
import tempfile

from google.protobuf import descriptor_pb2

FILES = ["opentelemetry/proto/common/v1/common.proto", "opentelemetry/proto/resource/v1/resource.proto",
         "opentelemetry/proto/trace/v1/trace.proto",
         "opentelemetry/proto/collector/trace/v1/trace_service.proto"]
# (message, field name, number) present in upstream 1.x but not in the 0.38.0 snapshot.
NEWER_UPSTREAM = {("opentelemetry.proto.trace.v1.Span", "flags", 16)}


def load(root):
    with tempfile.NamedTemporaryFile(suffix=".pb") as out:
        subprocess.run(["protoc", "-I", root, "--include_imports", "--descriptor_set_out", out.name] + FILES,
                       check=True)
        fds = descriptor_pb2.FileDescriptorSet.FromString(open(out.name, "rb").read())
    messages, enums, services = {}, {}, {}

    def walk(prefix, msgs, ens):
        for e in ens:
            enums[prefix + e.name] = {v.name: v.number for v in e.value}
        for m in msgs:
            name = prefix + m.name
            messages[name] = {f.name: (f.number, f.type, f.label, f.type_name) for f in m.field}
            walk(name + ".", m.nested_type, m.enum_type)

    for f in fds.file:
        walk(f.package + ".", f.message_type, f.enum_type)
        for s in f.service:
            for m in s.method:
                services["/%s.%s/%s" % (f.package, s.name, m.name)] = (m.input_type, m.output_type)
    return messages, enums, services


def main():
    sub_m, sub_e, sub_s = load(sys.argv[1])
    off_m, off_e, off_s = load(sys.argv[2])
    errors = []
    checked = 0
    for msg, fields in sub_m.items():
        if msg not in off_m:
            errors.append("message %s is not in the official schema" % msg)
            continue
        for name, spec in fields.items():
            if (msg, name, spec[0]) in NEWER_UPSTREAM:
                if any(o[0] == spec[0] for o in off_m[msg].values()):
                    errors.append("%s.%s: number %d is taken in the official schema" % (msg, name, spec[0]))
                continue
            checked += 1
            if off_m[msg].get(name) != spec:
                errors.append("%s.%s: here %s, official %s" % (msg, name, spec, off_m[msg].get(name)))
    for enum, values in sub_e.items():
        for name, number in values.items():
            if off_e.get(enum, {}).get(name) != number:
                errors.append("enum %s.%s = %d differs" % (enum, name, number))
    for path, types in sub_s.items():
        if off_s.get(path) != types:
            errors.append("method %s: here %s, official %s" % (path, types, off_s.get(path)))
    if "/opentelemetry.proto.collector.trace.v1.TraceService/Export" not in sub_s:
        errors.append("Export method missing")
    for e in errors:
        print("MISMATCH:", e)
    print("%d fields checked against the official schema, %d mismatches" % (checked, len(errors)))
    return 1 if errors or checked < 20 else 0


if __name__ == "__main__":
    sys.exit(main())
